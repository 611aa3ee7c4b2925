// The order prune drops tables in: a table goes before those it references by a foreign key and
// before those it inherits from, else DROP TABLE fails ("cannot drop table … because other
// objects depend on it"). A declared table that keeps such a link to a pruned table is a problem.
import type { ClusterModel, Table } from '../../model/types.js';
import type { DiffProblem } from '../problem.js';
import { constraintKey } from '../../model/key-names.js';
import { tableRef } from '../../model/object-ref.js';

/** What `t` needs to exist while it does: the tables it references and inherits from. */
const needs = (t: Table): string[] => [...t.foreignKeys.map((fk) => fk.refTable), ...(t.inherits ?? [])];

/** The pruned tables, each after every pruned table that depends on it (stable otherwise). */
export function pruneOrder(pruned: readonly Table[]): Table[] {
  const ids = new Set(pruned.map((t) => t.id));
  const dependents = new Map<string, Table[]>();
  for (const t of pruned)
    for (const n of needs(t)) if (ids.has(n) && n !== t.id) dependents.set(n, [...(dependents.get(n) ?? []), t]);
  const out: Table[] = [];
  const seen = new Set<string>();
  const visit = (t: Table): void => {
    if (seen.has(t.id)) return; // done, or a cycle (foreign keys both ways): name order
    seen.add(t.id);
    for (const d of dependents.get(t.id) ?? []) visit(d);
    out.push(t);
  };
  for (const t of pruned) visit(t);
  return out;
}

/** Tables the plan keeps whose foreign keys or inheritance would block a pruned table's DROP. */
export function pruneBlockers(
  pruned: readonly Table[],
  desired: ClusterModel,
  actual: ClusterModel,
  replaced: ReadonlySet<string>,
): DiffProblem[] {
  const ids = new Set(pruned.map((t) => t.id));
  const problems: DiffProblem[] = [];
  for (const t of Object.values(actual.tables)) {
    if (ids.has(t.id) || !desired.tables[t.id]) continue;
    const links = [
      ...t.foreignKeys
        .filter((fk) => ids.has(fk.refTable) && !(fk.name !== undefined && replaced.has(constraintKey(t.id, fk.name))))
        .map((fk) => `its foreign key${fk.name !== undefined ? ` ${fk.name}` : ''} references ${fk.refTable}`),
      ...(t.inherits ?? []).filter((p) => ids.has(p)).map((p) => `it inherits from ${p}`),
    ];
    for (const link of links)
      problems.push({
        code: 'prune_blocked',
        object: tableRef(t.id),
        message: `${link}, which prune drops, and the manifest does not declare that link: PostgreSQL refuses the DROP while it exists; drop the link first, or declare the table it points to`,
      });
  }
  return problems;
}
