/** The host expression language (readhostdb -expr, generate.*.expr): what it computes, and what it refuses. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileExpression, ExpressionEvaluationError, ExpressionSyntaxError } from '../../core/crawl/hostdb/host-expression.js';
import { compileHostExpression, hostVariables } from '../../core/crawl/hostdb/host-variables.js';
import { createHostDatum } from '../../core/model/host-datum.js';

const host = createHostDatum({ fetched: 40, notModified: 2, unfetched: 10, redirTemp: 1, redirPerm: 2, gone: 3, dnsFailures: 1, score: 0.5, metaData: { 'avg._rs_': 250, 'pct95._rs_': 900, 'Content-Type.text/html': 40, note: 'text' } });
const run = (src: string) => compileExpression(src).evaluate(hostVariables(host));

test('arithmetic, precedence, comparison and logic as JEXL, over HostDatum variables', () => {
  assert.equal(run('fetched + unfetched * 2'), 60);
  assert.equal(run('(fetched + unfetched) * 2'), 100);
  assert.equal(run('ok'), 42);
  assert.equal(run('redirs'), 3);
  assert.equal(run('numRecords'), 58);
  assert.equal(run('fetched / 16'), 2.5);
  assert.equal(run('fetched % 7'), 5);
  assert.equal(run('-score + 1'), 0.5);
  assert.equal(run('fetched > 10 && dnsFailures == 0'), false);
  assert.equal(run('fetched gt 10 and not (dnsFailures eq 0)'), true);
  assert.equal(run('avg._rs_ > 200 ? 10000 : 1000'), 10000);
  assert.equal(run('pct95._rs_ >= 900 || false'), true);
  assert.equal(run("'a' + 'b' == \"ab\""), true);
  assert.equal(run('gone != 3 ? 1 : gone < 4 ? 2 : 3'), 2);
  assert.equal(run('1.5e1'), 15);
});

test('an unknown variable, text as a number or division by zero fails for that host only', () => {
  assert.throws(() => run('avg.score > 1'), (e: Error) => e instanceof ExpressionEvaluationError && /unknown variable avg\.score/.test(e.message));
  assert.throws(() => run('note > 1'), /unknown variable note/, 'text metadata is not a variable, as Nutch sets only numbers');
  assert.throws(() => run("'x' * 2"), /\* needs numbers/);
  assert.throws(() => run('fetched / (gone - 3)'), /division by zero/);
});

test('syntax errors name the position; compileHostExpression names the property', () => {
  for (const [src, pos, reason] of [
    ['fetched >', 10, /found the end of the expression/],
    ['fetched > > 1', 11, /found ">"/],
    ['(fetched', 9, /expected "\)"/],
    ['fetched ? 1', 12, /expected ":"/],
    ["'open", 1, /unterminated string/],
    ['fetched; 1', 8, /unexpected character ";"/],
    ['process.exit(1)', 13, /expected an operator or the end, found "\("/],
    ['', 1, /expected an expression/],
  ] as const) {
    assert.throws(() => compileExpression(src), (e: unknown) => e instanceof ExpressionSyntaxError && e.position === pos && reason.test(e.reason), src);
  }
  assert.throws(() => compileHostExpression('fetched >', 'generate.max.count.expr'), (e: { code: string; message: string }) =>
    e.code === 'NUTCH_HOSTDB_EXPRESSION_INVALID' && /^generate\.max\.count\.expr "fetched >": .* at position 10/.test(e.message));
});
