// The order objects defined by SQL are created in: each after what it depends on, types first.
import type { SqlObject } from '../model/types.js';

const TYPE_KINDS = new Set<SqlObject['kind']>(['extension', 'enum', 'domain', 'composite type']);
/** Kinds that must go before tables are created or changed (columns use them). */
export const isTypeKind = (k: SqlObject['kind']): boolean => TYPE_KINDS.has(k);

/** Orders objects so that each comes after what it depends on (stable otherwise). */
export function dependencyOrder(objs: readonly SqlObject[]): SqlObject[] {
  const byName = new Map<string, SqlObject[]>();
  for (const o of objs) for (const p of [...o.provides, o.id]) byName.set(p, [...(byName.get(p) ?? []), o]);
  const out: SqlObject[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (o: SqlObject): void => {
    if (state.get(o.id)) return; // done, or a cycle: keep declaration order
    state.set(o.id, 'visiting');
    for (const d of o.deps) for (const dep of byName.get(d) ?? []) if (dep !== o) visit(dep);
    state.set(o.id, 'done');
    out.push(o);
  };
  // Operators next: what uses one (a view, an index, a CHECK) does not name it as a relation.
  const rank = (o: SqlObject): number => (isTypeKind(o.kind) ? 0 : o.kind === 'operator' ? 1 : 2);
  for (const o of [...objs].sort((a, b) => rank(a) - rank(b))) visit(o);
  return out;
}
