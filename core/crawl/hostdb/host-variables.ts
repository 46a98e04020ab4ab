/**
 * What a host expression sees of a HostDatum: the variables Nutch's ReadHostDb and Generator set
 * (unfetched, fetched, gone, redirTemp, redirPerm, redirs, notModified, ok, numRecords, dnsFailures,
 * connectionFailures) plus score, and every numeric metadata value (`avg._rs_`, `pct95.score`) under
 * its key. Compiling names the property or option the expression came from, and the position.
 */
import { NutchError } from '../../errors.js';
import { numRecords, type HostDatum } from '../../model/host-datum.js';
import { compileExpression, ExpressionSyntaxError, type ExpressionValue, type HostExpression } from './host-expression.js';

export function hostVariables(d: HostDatum): (name: string) => ExpressionValue | undefined {
  const fixed: Record<string, number> = {
    unfetched: d.unfetched,
    fetched: d.fetched,
    gone: d.gone,
    redirTemp: d.redirTemp,
    redirPerm: d.redirPerm,
    redirs: d.redirTemp + d.redirPerm,
    notModified: d.notModified,
    ok: d.fetched + d.notModified,
    numRecords: numRecords(d),
    dnsFailures: d.dnsFailures,
    connectionFailures: d.connectionFailures,
    score: d.score,
  };
  return (name) => {
    if (Object.hasOwn(fixed, name)) return fixed[name];
    const v = d.metaData[name];
    return typeof v === 'number' ? v : undefined;
  };
}

/**
 * Compiles a host expression; a syntax error is NUTCH_HOSTDB_EXPRESSION_INVALID naming `origin`
 * (a property such as generate.max.count.expr, or an option such as readhostdb -expr) and the position.
 */
export function compileHostExpression(source: string, origin: string): HostExpression {
  try {
    return compileExpression(source);
  } catch (err) {
    if (!(err instanceof ExpressionSyntaxError)) throw err;
    throw new NutchError(
      'NUTCH_HOSTDB_EXPRESSION_INVALID',
      `${origin} ${JSON.stringify(source)}: ${err.reason} at position ${err.position}. See docs/hostdb.md for the expression syntax.`,
      { origin, expression: source, position: err.position },
    );
  }
}
