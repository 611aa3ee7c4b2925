// The PostgreSQL regression corpus report: per kind of object (pg_dump's object types) how many the
// files' databases held, how many came through equal, differed or went missing, and per file the
// steps that did not end cleanly, with the kinds introspect named as not managed.
import type { KindCounts, RegressOutcome } from './pg-regress.js';
import { realSchemasTable } from './real-schemas-table.js';

/** The per-kind counts summed over the files. */
export function kindTotals(outcomes: readonly RegressOutcome[]): Map<string, KindCounts & { files: number }> {
  const totals = new Map<string, KindCounts & { files: number }>();
  for (const o of outcomes)
    for (const [kind, c] of Object.entries(o.kinds)) {
      const t = totals.get(kind) ?? { original: 0, equal: 0, differ: 0, missing: 0, extra: 0, files: 0 };
      totals.set(kind, {
        original: t.original + c.original,
        equal: t.equal + c.equal,
        differ: t.differ + c.differ,
        missing: t.missing + c.missing,
        extra: t.extra + c.extra,
        files: t.files + 1,
      });
    }
  return totals;
}

/** The kinds introspect named as not managed, summed over the files ("kind (n)" lines). */
export function namedTotals(outcomes: readonly RegressOutcome[]): Map<string, { n: number; files: number }> {
  const named = new Map<string, { n: number; files: number }>();
  for (const o of outcomes)
    for (const l of o.introspect.leftOut) {
      const m = /^(.*) \((\d+)\)$/.exec(l);
      if (!m) continue;
      const t = named.get(m[1]!) ?? { n: 0, files: 0 };
      named.set(m[1]!, { n: t.n + Number(m[2]), files: t.files + 1 });
    }
  return named;
}

const sum = (os: readonly RegressOutcome[], f: (o: RegressOutcome) => number): number =>
  os.reduce((n, o) => n + f(o), 0);

export function pgRegressTable(outcomes: readonly RegressOutcome[]): string {
  const applied = outcomes.filter((o) => o.apply?.exit === 0);
  const equal = applied.filter((o) => o.dumpDiffLines === 0);
  const head = [
    `${outcomes.length} files; introspect exit 0 on ${outcomes.filter((o) => o.introspect.exit === 0).length}, ` +
      `applied on ${applied.length}, dumps equal on ${equal.length}, ` +
      `re-plan empty on ${outcomes.filter((o) => o.replan?.exit === 0).length}; ` +
      `owners equal: ${sum(outcomes, (o) => o.owners?.equal ?? 0)} of ${sum(outcomes, (o) => o.owners?.original ?? 0)}.`,
    '',
    '| kind (pg_dump) | files | objects | equal | differ | missing | only in copy |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const kinds = [...kindTotals(outcomes)].sort((a, b) => b[1].original - a[1].original || a[0].localeCompare(b[0]));
  for (const [k, c] of kinds)
    head.push(`| ${k} | ${c.files} | ${c.original} | ${c.equal} | ${c.differ} | ${c.missing} | ${c.extra} |`);
  const named = [...namedTotals(outcomes)].sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]));
  head.push('', '| named as not managed | files | objects |', '|---|---:|---:|');
  for (const [k, c] of named) head.push(`| ${k} | ${c.files} | ${c.n} |`);
  const unequal = outcomes
    .filter((o) => o.unequal.length > 0)
    .map((o) => `- **${o.schema}**: ${o.unequal.slice(0, 6).join(', ')}${o.unequal.length > 6 ? ', …' : ''}`);
  const notClean = outcomes.filter(
    (o) => o.introspect.exit !== 0 || o.apply?.exit !== 0 || (o.dumpDiffLines ?? 0) > 0 || o.replan?.exit !== 0,
  );
  return [...head, '', ...unequal, '', realSchemasTable(notClean)].join('\n');
}
