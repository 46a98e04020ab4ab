/** Typed getters, as Hadoop's Configuration: values from JSON or from -D strings coerce to the declared type. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Configuration } from '../../core/config/configuration.js';
import { parseDuration, splitList } from '../../core/config/property-types.js';

function conf(values: Record<string, unknown>, layer: 'site' | 'cli' = 'site') {
  const c = new Configuration();
  c.declare({
    's': { type: 'string', default: 'dflt', description: 'a string' },
    'mode': { type: 'string', default: 'byHost', enum: ['byHost', 'byDomain', 'byIP'], description: 'an enum' },
    'i': { type: 'int', default: 5, min: 0, max: 100, description: 'an int' },
    'f': { type: 'float', default: 0.5, description: 'a float' },
    'b': { type: 'boolean', default: false, description: 'a boolean' },
    'l': { type: 'strings', default: [], description: 'a list' },
    'r': { type: 'regex', default: '', description: 'a regex' },
    'd': { type: 'duration', default: '1d', description: 'a duration' },
    'j': { type: 'json', default: { a: 1 }, description: 'json' },
  }, 'core');
  c.setAll(values, { layer, source: layer === 'site' ? 'nutch-site.json' : '-D' });
  c.validate();
  return c;
}

test('defaults come back typed', () => {
  const c = conf({});
  assert.equal(c.getString('s'), 'dflt');
  assert.equal(c.getInt('i'), 5);
  assert.equal(c.getFloat('f'), 0.5);
  assert.equal(c.getBoolean('b'), false);
  assert.deepEqual(c.getStrings('l'), []);
  assert.equal(c.getRegex('r'), null, 'an empty regex is "no regex"');
  assert.equal(c.getDuration('d'), 86_400_000);
  assert.deepEqual(c.get('j'), { a: 1 });
});

test('-D strings coerce: int, float, boolean (any case), lists, regex, duration', () => {
  const c = conf({ s: 'x', i: ' 42 ', f: '2.5', b: 'TRUE', l: 'a, b  c,,d', r: '^https?://', d: '30s', mode: 'byDomain' }, 'cli');
  assert.equal(c.getString('s'), 'x');
  assert.equal(c.getInt('i'), 42);
  assert.equal(c.getFloat('f'), 2.5);
  assert.equal(c.getBoolean('b'), true);
  assert.deepEqual(c.getStrings('l'), ['a', 'b', 'c', 'd'], "Nutch's comma- or whitespace-separated lists");
  assert.ok(c.getRegex('r')!.test('https://x'));
  assert.equal(c.getDuration('d'), 30_000);
  assert.equal(c.getString('mode'), 'byDomain');
});

test('JSON values: arrays stay arrays, numbers stay numbers; getString joins a list with commas', () => {
  const c = conf({ l: ['urlfilter-regex', 'urlfilter-validator'], i: 7, f: 3, b: true, d: 1500 });
  assert.deepEqual(c.getStrings('l'), ['urlfilter-regex', 'urlfilter-validator']);
  assert.equal(c.getString('l'), 'urlfilter-regex,urlfilter-validator');
  assert.equal(c.getInt('i'), 7);
  assert.equal(c.getFloat('f'), 3);
  assert.equal(c.getBoolean('b'), true);
  assert.equal(c.getDuration('d'), 1500, 'a plain number is milliseconds');
});

test('durations: ms, s, m, h, d, fractions; garbage is undefined', () => {
  assert.equal(parseDuration('500ms'), 500);
  assert.equal(parseDuration('1.5s'), 1500);
  assert.equal(parseDuration('5m'), 300_000);
  assert.equal(parseDuration('2h'), 7_200_000);
  assert.equal(parseDuration(' 3 d '), 259_200_000);
  assert.equal(parseDuration('250'), 250);
  assert.equal(parseDuration('soon'), undefined);
  assert.equal(parseDuration('5 weeks'), undefined);
  assert.deepEqual(splitList(' a\tb\nc , d '), ['a', 'b', 'c', 'd']);
});

for (const [name, value, reason] of [
  ['i', 'ten', /expected an integer, got "ten"/],
  ['i', 2.5, /expected an integer, got 2\.5/],
  ['i', 101, /101 is above the maximum 100/],
  ['i', -1, /-1 is below the minimum 0/],
  ['f', 'fast', /expected a number/],
  ['b', 'yes', /expected true or false, got "yes"/],
  ['l', [1, 2], /expected an array of strings/],
  ['l', { a: 1 }, /expected a list/],
  ['r', '(unclosed', /regular expression does not compile/],
  ['d', 'soon', /expected a duration/],
  ['mode', 'byPlanet', /"byPlanet" is not one of byHost, byDomain, byIP/],
  ['s', { x: 1 }, /expected a string/],
] as const) {
  test(`a wrong-typed value is an error naming the property: ${name} = ${JSON.stringify(value)}`, () => {
    assert.throws(() => conf({ [name]: value }), (err: any) => {
      assert.equal(err.code, 'NUTCH_CONFIG_INVALID_VALUE');
      assert.match(err.message, new RegExp(`Invalid value for property "${name}" \\(set in nutch-site\\.json at /${name}\\)`));
      assert.match(err.message, reason);
      assert.equal(err.details.property, name);
      assert.equal(err.details.pointer, `/${name}`);
      return true;
    });
  });
}

test('reading an undeclared property is a programming error with its own code', () => {
  assert.throws(() => new Configuration().getString('no.such.property'), (err: any) => err.code === 'NUTCH_CONFIG_UNKNOWN_PROPERTY' && /no\.such\.property/.test(err.message));
});
