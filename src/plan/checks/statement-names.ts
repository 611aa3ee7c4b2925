// The tables and columns one SQL statement names, read from its parse tree: every relation (with
// its alias), every column reference (with its qualifier), and the columns an INSERT, UPDATE or
// ON CONFLICT DO UPDATE writes (with their table). What the statement means is not resolved here
// (checks/broken-callers.ts matches the names against the cluster's tables). Pure.
import { strings, type Node } from '../../sql/pg-parse.js';

export interface NamedRelation {
  readonly schema?: string;
  readonly name: string;
  readonly alias?: string;
}

export interface NamedColumn {
  readonly name: string;
  /** `t` of `t.c` (an alias or a table name). */
  readonly qualifier?: string;
  /** The table an INSERT / UPDATE writes the column of. */
  readonly target?: NamedRelation;
}

const relationOf = (rv: Node): NamedRelation => ({
  ...(rv.schemaname ? { schema: rv.schemaname } : {}),
  name: rv.relname,
  ...(rv.alias?.aliasname ? { alias: rv.alias.aliasname } : {}),
});

/** The relations and columns `stmt` (a parse tree's statement node) names. */
export function statementNames(stmt: Node): { relations: NamedRelation[]; columns: NamedColumn[] } {
  const relations: NamedRelation[] = [];
  const columns: NamedColumn[] = [];
  const written = (target: Node, list: Node[] | undefined): void => {
    const rel = relationOf(target);
    for (const t of list ?? []) if (t?.ResTarget?.name) columns.push({ name: t.ResTarget.name, target: rel });
  };
  const stack: unknown[] = [stmt];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const x of node) stack.push(x);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const n = node as Node;
    if (n.RangeVar?.relname) relations.push(relationOf(n.RangeVar));
    if (n.ColumnRef) {
      const fields: Node[] = n.ColumnRef.fields ?? [];
      if (!fields.some((f) => f.A_Star)) {
        const names = strings(fields);
        if (names.length > 0)
          columns.push({
            name: names[names.length - 1]!,
            ...(names.length >= 2 ? { qualifier: names[names.length - 2]! } : {}),
          });
      }
    }
    if (n.InsertStmt?.relation) {
      written(n.InsertStmt.relation, n.InsertStmt.cols);
      const set = n.InsertStmt.onConflictClause?.targetList;
      if (set) written(n.InsertStmt.relation, set);
    }
    if (n.UpdateStmt?.relation) written(n.UpdateStmt.relation, n.UpdateStmt.targetList);
    for (const v of Object.values(n)) if (v !== null && typeof v === 'object') stack.push(v);
  }
  return { relations, columns };
}
