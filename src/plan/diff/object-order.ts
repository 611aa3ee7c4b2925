// The order objects defined by SQL are created in: each after what it depends on, types first.
import { OBJECT_SPEC } from '../../model/object-spec.js';
import type { ClusterModel, SqlObject } from '../../model/types.js';
import { relationRef } from '../../model/object-ref.js';

/** Kinds that must go before tables are created or changed (columns use them). */
export const isTypeKind = (k: SqlObject['kind']): boolean => OBJECT_SPEC[k].type === true;

const EARLY: ReadonlySet<SqlObject['kind']> = new Set(['operator', 'operator family', 'operator class', 'cast']);

/** Orders objects so that each comes after what it depends on (stable otherwise). */
export function dependencyOrder(objs: readonly SqlObject[]): SqlObject[] {
  const byName = new Map<string, SqlObject[]>();
  for (const o of objs) for (const p of [...o.provides, o.id]) byName.set(p, [...(byName.get(p) ?? []), o]);
  const out: SqlObject[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const depsOf = (o: SqlObject): SqlObject[] => o.deps.flatMap((d) => (byName.get(d) ?? []).filter((x) => x !== o));
  // Depth first with a stack of its own: a chain of views may be thousands long.
  const visit = (root: SqlObject): void => {
    if (state.get(root.id)) return; // done, or a cycle: keep declaration order
    state.set(root.id, 'visiting');
    const stack = [{ o: root, deps: depsOf(root), at: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const dep = top.deps[top.at++];
      if (dep === undefined) {
        state.set(top.o.id, 'done');
        out.push(top.o);
        stack.pop();
      } else if (!state.get(dep.id)) {
        state.set(dep.id, 'visiting');
        stack.push({ o: dep, deps: depsOf(dep), at: 0 });
      }
    }
  };
  // Operators, their families and classes, and casts next: what uses one (a view, an index, a
  // CHECK) does not name it.
  const rank = (o: SqlObject): number => (isTypeKind(o.kind) ? 0 : EARLY.has(o.kind) ? 1 : 2);
  for (const o of [...objs].sort((a, b) => rank(a) - rank(b))) visit(o);
  return out;
}

/**
 * A CHECK of a table made after the same-named CHECK of each table that inherits from it: added
 * to the parent, it merges into the child's own; made first (NOT VALID, say), it reaches the
 * child, whose own then conflicts ("conflicts with NOT VALID constraint"). PostgreSQL's inherit.sql.
 */
export function childChecksFirst(objs: readonly SqlObject[], desired: ClusterModel): SqlObject[] {
  const ids = new Set(objs.map((o) => o.id));
  const children = new Map<string, string[]>();
  for (const t of Object.values(desired.tables))
    for (const p of t.inherits ?? []) children.set(relationRef(p), [...(children.get(relationRef(p)) ?? []), t.id]);
  if (children.size === 0) return [...objs];
  return objs.map((o) => {
    const kids = o.kind === 'check constraint' && o.parent ? children.get(o.parent) : undefined;
    if (!kids) return o;
    const own = o.name.slice(o.parent!.length - 'relation '.length + 1);
    const first = kids.map((c) => `check constraint ${c}.${own}`).filter((id) => ids.has(id));
    return first.length > 0 ? { ...o, deps: [...o.deps, ...first] } : o;
  });
}
