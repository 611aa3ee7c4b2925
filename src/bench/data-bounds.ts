// Parameter bounds that come from the data ({ max: warehouse.w_id }), read once before the run in
// one statement, then bound into the workloads as plain numbers. HammerDB's own driver sizes its
// warehouse range the same way (SELECT max(w_id) FROM warehouse).
import type { Queryable } from '../db/connect.js';
import { TOOL_PATH_PINS, withPins } from '../introspect/catalog-query.js';
import { BenchDataError } from '../errors.js';
import type { BenchSpec, BenchWorkload, DataRef, ResolvedParam, SpecParam } from '../manifest/resolve-bench.js';
import { quoteIdent, quoteQualified } from '../sql/quote.js';

/** The distinct data references of some workloads, in first-use order. */
export function dataRefsOf(workloads: readonly BenchWorkload<SpecParam>[]): DataRef[] {
  const refs = new Map<string, DataRef>();
  for (const w of workloads) {
    for (const p of w.params) {
      const bounds = 'int' in p ? p.int : 'const' in p ? [p.const] : [];
      for (const b of bounds) if (typeof b === 'object' && !refs.has(b.key)) refs.set(b.key, b);
    }
  }
  return [...refs.values()];
}

/** One statement reading every bound: column bN is dataRefs[N] (names through quote.ts). */
export function dataBoundsQuery(refs: readonly DataRef[]): string {
  return `SELECT ${refs.map((r, i) => `(SELECT pg_catalog.${r.agg}(${quoteIdent(r.column)}) FROM ${quoteQualified(r.table)})::pg_catalog.text AS b${i}`).join(', ')}`;
}

/** Reads the bounds; an empty table or a value that is not an integer is an error naming the reference. */
export async function readDataBounds(db: Queryable, refs: readonly DataRef[]): Promise<ReadonlyMap<string, number>> {
  const out = new Map<string, number>();
  if (refs.length === 0) return out;
  let row: Record<string, string | null>;
  try {
    // Citus plans these through intermediate results, SQL it writes with unqualified names (`'1_2'::text`):
    // run with pg_catalog alone on the search_path, so no look-alike of another schema stands in.
    row = (await withPins<Record<string, string | null>>(db, dataBoundsQuery(refs), TOOL_PATH_PINS))[0]!;
  } catch (e) {
    const sqlstate = (e as { code?: string }).code;
    throw new BenchDataError(
      `cannot read the bench parameter bounds (${refs.map((r) => r.text).join(', ')}): ${sqlstate ? `${sqlstate} ` : ''}${(e as Error).message}`,
      refs.map((r) => r.text),
    );
  }
  refs.forEach((r, i) => {
    const v = row[`b${i}`];
    const where = `${quoteQualified(r.table)}.${quoteIdent(r.column)}`;
    if (v === null || v === undefined)
      throw new BenchDataError(
        `bench parameter bound ${r.text} is empty: ${quoteQualified(r.table)} has no rows with a ${quoteIdent(r.column)} (load the data first, or give a number)`,
        [r.text],
      );
    const n = Number(v);
    if (!Number.isSafeInteger(n))
      throw new BenchDataError(`bench parameter bound ${r.text} is ${v}, not an integer (${where})`, [r.text]);
    out.set(r.key, n);
  });
  return out;
}

/** The spec with every data bound replaced by the value read for it. */
export function bindDataBounds(spec: BenchSpec<SpecParam>, values: ReadonlyMap<string, number>): BenchSpec {
  const value = <T extends string | number | boolean>(v: T | DataRef): T | number => {
    if (typeof v !== 'object') return v;
    const n = values.get(v.key);
    if (n === undefined)
      throw new BenchDataError(`bench parameter bound ${v.text} was not read from the database`, [v.text]);
    return n;
  };
  const workloads = spec.workloads.map((w) => ({
    ...w,
    params: w.params.map((p, i): ResolvedParam => {
      if ('int' in p) {
        const [lo, hi] = [value(p.int[0]), value(p.int[1])];
        if (lo > hi)
          throw new BenchDataError(
            `workload ${w.name}: parameter $${i + 1} int range [${lo}, ${hi}] is empty (${[p.int[0], p.int[1]]
              .filter((b) => typeof b === 'object')
              .map((b) => (b as DataRef).text)
              .join(', ')} read from the database)`,
            [w.name],
          );
        return { int: [lo, hi] };
      }
      if ('const' in p) return { const: value(p.const) };
      return p;
    }),
  }));
  return { ...spec, workloads };
}
