// How a workload's SQL is sent. SELECT f($1, …): a named prepared statement with bind values (or,
// behind a pooler in transaction mode, where a named statement does not outlive its transaction,
// an unnamed one: parsed on every call, bound in the same round trip).
// CALL p($1, …): the values inlined as quoted literals at the placeholders the parser found, over
// the simple protocol — Citus does not delegate a CALL that carries bind parameters.
import { parseStatements, type Node } from '../sql/pg-parse.js';
import { quoteLiteral } from '../sql/quote.js';
import type { BenchWorkload } from '../manifest/resolve-bench.js';
import type { ParamValue } from './params.js';

export interface Shaped {
  readonly protocol: 'simple-literals' | 'prepared' | 'unnamed';
  /** For prepared: the statement name; otherwise undefined. */
  readonly name?: string;
  render(values: readonly ParamValue[]): { text: string; values?: readonly ParamValue[] };
}

function paramRefs(node: Node, out: Placeholder[]): void {
  if (Array.isArray(node)) {
    for (const x of node) paramRefs(x, out);
    return;
  }
  if (!node || typeof node !== 'object') return;
  if (node.ParamRef && typeof node.ParamRef.number === 'number')
    out.push({ n: node.ParamRef.number, loc: node.ParamRef.location });
  for (const v of Object.values(node)) paramRefs(v, out);
}

/** A literal for a generated value. */
export function literal(v: ParamValue): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : quoteLiteral(String(v));
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return quoteLiteral(v);
}

/** The placeholders ($n) the parser finds in one statement, with their byte offsets. */
export function placeholders(sql: string): readonly Placeholder[] {
  const refs: Placeholder[] = [];
  paramRefs(parseStatements(sql)[0].stmt, refs);
  return refs;
}

export interface Placeholder {
  readonly n: number;
  readonly loc: number;
}

/** Replaces each placeholder, at the parser's location, with the text `by` gives for its number. */
export function replacePlaceholders(sql: string, refs: readonly Placeholder[], by: (n: number) => string): string {
  let buf = Buffer.from(sql, 'utf8');
  // From last to first, so earlier offsets stay valid; offsets are in bytes.
  for (const r of [...refs].sort((a, b) => b.loc - a.loc)) {
    const len = 1 + String(r.n).length;
    buf = Buffer.concat([buf.subarray(0, r.loc), Buffer.from(by(r.n), 'utf8'), buf.subarray(r.loc + len)]);
  }
  return buf.toString('utf8');
}

/** Prepares a workload for sending; `unnamed`: bind parameters without a named statement. */
export function shape(w: Pick<BenchWorkload<unknown>, 'sql' | 'protocol'>, index: number, unnamed = false): Shaped {
  if (w.protocol === 'prepared' && unnamed)
    return { protocol: 'unnamed', render: (values) => ({ text: w.sql, values }) };
  if (w.protocol === 'prepared') {
    const name = `cm_bench_${index}`;
    return { protocol: 'prepared', name, render: (values) => ({ text: w.sql, values }) };
  }
  const refs = placeholders(w.sql);
  return {
    protocol: 'simple-literals',
    render: (values) => ({ text: replacePlaceholders(w.sql, refs, (n) => literal(values[n - 1]!)) }),
  };
}
