/** The Java → JavaScript regex translation, pattern by pattern: Matcher.find() answers as Java gives them. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileJavaRegex, translateJavaRegex } from './java-regex/index.js';

const finds: Array<[string, string, boolean]> = [
  ['^(?:file|ftp|mailto):', 'ftp://x', true],
  ['(?i)\\.(?:gif|jpg)$', 'http://a/B.GIF', true],
  ['(?i)\\.(?:gif|jpg)$', 'http://a/B.GIFx', false],
  ['\\.gif$', 'http://a/b.gif\n', true], // Java's $ also matches before a final line terminator
  ['\\.gif$', 'http://a/b.gif\r\n', true],
  ['\\.gif$', 'http://a/b.gif\u0085', true],
  ['\\.gif$', 'http://a/b.gif\n\n', false],
  ['(?d)\\.gif$', 'http://a/b.gif\r', false], // UNIX_LINES: only \n ends a line
  ['a.b', 'a\u0085b', false], // Java's . excludes NEL, JavaScript's does not
  ['(?s)a.b', 'a\nb', true],
  ['(?m)^b', 'a\nb', true],
  ['^b', 'a\nb', false],
  ['(?m)a$', 'a\nb', true],
  ['[?*!@=]', 'http://a/?x', true],
  ['.*(/[^/]+)/[^/]+\\1/[^/]+\\1/', 'http://a/x/y/x/z/x/', true],
  ['.*(/[^/]+)/[^/]+\\1/[^/]+\\1/', 'http://a/x/y/x/z/w/', false],
  ['.*?x|y', 'ay', true],
  ['a*+a', 'aaaa', false],
  ['a++b', 'aaab', true],
  ['a?+a', 'a', false],
  ['a{2,3}+a', 'aaa', false],
  ['(a)++\\1', 'aa', false],
  ['(?>a|ab)c', 'abc', false],
  ['(?>ab|a)c', 'abc', true],
  ['(x)(?>y)(z)\\2', 'xyzz', true],
  ['\\p{Alpha}+\\d', 'abc1', true],
  ['\\p{Lower}', 'A', false],
  ['(?i)\\p{Lower}', 'A', true],
  ['\\p{Punct}', '~', true],
  ['\\P{Digit}', '5', false],
  ['\\p{L}', '\u00e9', true],
  ['\\pL', '\u00e9', true],
  ['\\p{IsLatin}', '\u00e9', true],
  ['\\p{sc=Greek}', '\u03b1', true],
  ['\\p{Lu}', 'a', false],
  ['\\p{javaLowerCase}', '\u00e9', true],
  ['[\\p{L}\\d]+$', '\u00e9t\u00e91', true],
  ['[^\\p{L}]', '\u00e9', false],
  ['\\Ahttp\\Z', 'http\n', true],
  ['\\Ahttp\\z', 'http\n', false],
  ['x\\Ahttp', 'xhttp', false],
  ['[a-z&&[^aeiou]]', 'e', false],
  ['[a-z&&[^aeiou]]', 'x', true],
  ['[a-f&&c-z]', 'b', false],
  ['[a[0-9]]', '5', true],
  ['[^a[0-9]]', '5', false],
  ['[]a]', ']', true],
  ['[a-]', '-', true],
  ['\\Qa.b\\E', 'axb', false],
  ['\\Qa.b\\E', 'a.b', true],
  ['\\Qa.b', 'a.b', true],
  ['[\\Q.]\\E]', ']', true],
  ['(?i:ab)c', 'ABc', true],
  ['(?i:ab)c', 'ABC', false],
  ['(?i)[^a-z]', 'A', false],
  ['(?i)\u00e9', '\u00c9', false], // Java folds only US-ASCII unless UNICODE_CASE
  ['(?iu)\u00e9', '\u00c9', true],
  ['(?i)k', '\u212a', false], // the Kelvin sign is not k in Java's ASCII folding
  ['(?i)s', '\u017f', false],
  ['(?i)a(?-i)b', 'Ab', true],
  ['(?i)a(?-i)b', 'AB', false],
  ['\\s', '\u00a0', false],
  ['\\s', '\u000b', true],
  ['\\h', '\u00a0', true],
  ['\\v', '\u2028', true],
  ['\\R', '\r\n', true],
  ['\\w', '\u00e9', false],
  ['\\bfoo\\b', 'a foo b', true],
  ['(a)|\\1', 'x', false],
  ['\\2(a)(b)', 'ab', false],
  ['(a)\\2', 'a', false],
  ['(?<seg>/[a-z]+)\\k<seg>', '/ab/ab', true],
  ['(?x) a b # comment', 'ab', true],
  ['(?x)[a b]', ' ', false],
  ['\\x{1F600}', '\u{1F600}', true],
  ['^.$', '\u{1F600}', true],
  ['\\0101', 'A', true],
  ['\\0477', "'7", true],
  ['\\x41\\u0042', 'AB', true],
  ['\\t', '\t', true],
  ['\\e', '\u001b', true],
  ['\\cA', '\u0001', true],
  ['a\\.b', 'axb', false],
  ['a\\/b', 'a/b', true],
  ['\\%', '%', true],
  ['}', '}', true],
  [']', ']', true],
  ['a{2}', 'aa', true],
  ['a{2,}', 'a', false],
  ['x(?=y)', 'xy', true],
  ['x(?!y)', 'xy', false],
  ['(?<=a)b', 'ab', true],
  ['(?<!a)b', 'ab', false],
  ['(?=a)*b', 'b', true],
  ['', 'anything', true],
  ['.', '', false],
];

describe('Java regex translation: Matcher.find() results', () => {
  for (const [pattern, input, expected] of finds) {
    test(`${JSON.stringify(pattern)} ${expected ? 'finds' : 'does not find'} ${JSON.stringify(input)}`, () => {
      assert.equal(compileJavaRegex(pattern).test(input), expected);
    });
  }
});

const rejected: Array<[string, RegExp]> = [
  ['a{', /Illegal repetition/],
  ['{1}', /Illegal repetition/],
  ['a{,3}', /Illegal repetition/],
  ['a{3,1}', /Illegal repetition range/],
  ['(?<x>a)(?<x>b)', /already defined/],
  ['\\k<nope>', /does not exist/],
  ['\\p{InGreek}', /Unicode blocks/],
  ['\\p{block=Greek}', /Unicode blocks/],
  ['\\p{NoSuchThing}', /unknown/],
  ['\\G', /\\G/],
  ['\\X', /grapheme/],
  ['\\b{g}', /grapheme/],
  ['(a)?\\1', /optional group/],
  ['(?:(a)|b)\\1', /optional part or alternative/],
  ['(?i)(a)\\1', /ignoring case/],
  ['[a-', /Unclosed character class/],
  ['[z-a]', /Illegal character range/],
  ['(a', /Unclosed group/],
  ['a)', /Unmatched closing/],
  ['*a', /Dangling meta character/],
  ['a**', /Dangling meta character/],
  ['a|+', /Dangling meta character/],
  ['\\y', /escape sequence/],
  ['\\', /trailing backslash/],
  ['\\x4', /hexadecimal/],
  ['\\u12', /Unicode escape/],
  ['\\x{110000}', /too big/],
  ['(?U)a', /only supported/],
  ['(?q)a', /Unknown inline modifier/],
  ['[a-z&&\\p{L}]', /intersection/],
];

describe('Java regex translation: constructs without an exact JavaScript form are rejected', () => {
  for (const [pattern, message] of rejected) {
    test(`rejects ${JSON.stringify(pattern)}`, () => {
      assert.throws(() => compileJavaRegex(pattern), (err: Error) => err.name === 'JavaRegexError' && message.test(err.message));
    });
  }
  test('always compiles with the u flag (code points, as Java)', () => {
    assert.equal(translateJavaRegex('a').flags, 'u');
    assert.equal(translateJavaRegex('(?iu)a').flags, 'iu');
  });
  test('Java group numbers map to JavaScript ones past the groups possessive quantifiers add', () => {
    const t = translateJavaRegex('(a)(?:b)++(c)(?>d)(e)');
    assert.deepEqual(t.groups, [1, 3, 5]);
    const m = new RegExp(t.source, t.flags).exec('abbcde')!;
    assert.deepEqual(t.groups.map((g) => m[g]), ['a', 'c', 'e']);
  });
  test('a leading .* is dropped: find() gives the same answer without the quadratic scan', () => {
    assert.equal(translateJavaRegex('.*(/[^/]+)\\1').source.startsWith('('), true);
    assert.equal(translateJavaRegex('.*a|b').source.startsWith('[^'), true);
  });
});
