// Where one SQL statement inside a delegated routine runs, read from its parse tree: on the shard
// the call was delegated to, on reference tables only (a copy on every worker), across shards, on
// the coordinator, or unknown. The rule Citus applies when the worker plans the statement: every
// distributed table it touches must be colocated with the routine and filtered by its
// distribution column equal to the distribution argument. Equalities are followed through joins
// and correlated subqueries (`s_w_id = ol_w_id AND ol_w_id = p_w_id`), one equivalence class per
// statement; only top-level AND conjuncts count (an OR does not filter).
import type { Node } from '../sql/pg-parse.js';
import {
  Classes,
  KEY,
  verdict,
  type Instance,
  type Level,
  type RoutineScope,
  type StatementLocality,
} from './verdict.js';

export { LOCALITIES, type Locality, type RoutineScope, type StatementLocality, type TableFacts } from './verdict.js';

const str = (n: Node): string | undefined => n?.String?.sval;
const conjuncts = (e: Node): Node[] =>
  !e ? [] : e.BoolExpr?.boolop === 'AND_EXPR' ? e.BoolExpr.args.flatMap(conjuncts) : [e];

/** Classifies one parsed statement (a RawStmt's `stmt`). */
export function classifyStatement(stmt: Node, scope: RoutineScope): StatementLocality {
  const classes = new Classes();
  const tokens = new Set<string>([KEY]);
  const instances: Instance[] = [];
  const notes = new Map<string, string>(); // column token -> how it is filtered otherwise (for why)
  const inserts: { token: string; values: (string | undefined)[] }[] = [];

  const colToken = (i: Instance, col: string): string => `${instances.indexOf(i)}.${col}`;
  const hasColumn = (i: Instance, col: string): boolean =>
    i.facts?.columns ? i.facts.columns.includes(col) : i.facts?.column === col;
  const byName = (level: Level | undefined, name: string): Instance | undefined => {
    for (let l = level; l; l = l.parent) {
      const hit = l.instances.find((i) => i.alias === name); // an aliased table is known by its alias only
      if (hit) return hit;
    }
    return undefined;
  };
  const columnRef = (fields: Node[], level: Level): string | undefined => {
    const parts = fields.map(str);
    if (parts.some((p) => p === undefined)) return undefined; // a.*
    if (parts.length === 1) {
      const [c] = parts as [string];
      for (let l: Level | undefined = level; l; l = l.parent) {
        const owners = l.instances.filter((i) => hasColumn(i, c));
        if (owners.length >= 1) return colToken(owners[0]!, c);
      }
      if (scope.variables.has(c)) return scope.keyVars.has(c) ? KEY : `var ${c}`;
      return undefined;
    }
    const col = parts[parts.length - 1]!;
    const rel = parts[parts.length - 2]!;
    const inst = byName(level, rel);
    if (inst) return colToken(inst, col);
    if (rel === scope.routineName && scope.variables.has(col)) return scope.keyVars.has(col) ? KEY : `var ${col}`;
    if (scope.variables.has(rel)) return `var ${rel}.${col}`;
    return undefined;
  };
  const token = (e: Node, level: Level): string | undefined => {
    if (!e) return undefined;
    if (e.TypeCast) return token(e.TypeCast.arg, level);
    if (e.ColumnRef) return columnRef(e.ColumnRef.fields, level);
    if (e.ParamRef) return e.ParamRef.number === scope.keyParam ? KEY : `param $${e.ParamRef.number}`;
    if (e.A_Const) return `constant ${JSON.stringify(e.A_Const)}`;
    return undefined;
  };
  const describe = (t: string): string =>
    t === KEY
      ? scope.keyName
      : t.startsWith('var ')
        ? t.slice(4)
        : t.startsWith('param ')
          ? t.slice(6)
          : t.startsWith('constant ')
            ? 'a constant'
            : t.replace(/^(\d+)\./, (_m, i: string) => `${instances[Number(i)]!.alias}.`);

  const filter = (e: Node, level: Level): void => {
    const x = e?.A_Expr;
    if (!x) return;
    const op = str(x.name?.[x.name.length - 1]);
    const left = token(x.lexpr, level);
    if (x.kind === 'AEXPR_OP' && op === '=') {
      const right = token(x.rexpr, level);
      if (left && right) {
        tokens.add(left);
        tokens.add(right);
        classes.union(left, right);
      }
    } else if (left && (x.kind === 'AEXPR_OP_ANY' || x.kind === 'AEXPR_IN')) {
      notes.set(left, x.kind === 'AEXPR_IN' ? 'an IN list' : 'an array (= ANY)');
    }
  };

  // Subqueries anywhere in an expression are levels of their own, inside `level`.
  const sublinks = (n: Node, level: Level): void => {
    if (Array.isArray(n)) {
      for (const x of n) sublinks(x, level);
      return;
    }
    if (!n || typeof n !== 'object') return;
    if (n.SubLink) {
      query(n.SubLink.subselect, level);
      sublinks(n.SubLink.testexpr, level);
      return;
    }
    if (n.SelectStmt || n.InsertStmt || n.UpdateStmt || n.DeleteStmt) {
      query(n, level);
      return;
    }
    for (const v of Object.values(n)) sublinks(v, level);
  };

  const from = (item: Node, level: Level, quals: Node[]): void => {
    if (item?.RangeVar) {
      const rv = item.RangeVar;
      const facts =
        rv.schemaname === undefined && cteVisible(level, rv.relname) ? null : scope.table(rv.schemaname, rv.relname);
      if (facts === null) return; // a CTE, not a table
      const inst: Instance = { facts, name: rv.relname, alias: rv.alias?.aliasname ?? rv.relname, level };
      instances.push(inst);
      level.instances.push(inst);
    } else if (item?.JoinExpr) {
      from(item.JoinExpr.larg, level, quals);
      from(item.JoinExpr.rarg, level, quals);
      if (item.JoinExpr.quals) quals.push(item.JoinExpr.quals);
    } else if (item?.RangeSubselect) {
      query(item.RangeSubselect.subquery, level);
    }
  };
  const cteVisible = (level: Level, name: string): boolean => {
    for (let l: Level | undefined = level; l; l = l.parent) if (l.ctes.has(name)) return true;
    return false;
  };

  function query(n: Node, parent: Level | undefined): Level {
    const [tag, q] = (Object.entries(n ?? {})[0] ?? ['', undefined]) as [string, Node];
    const level: Level = { parent, instances: [], ctes: new Set() };
    if (!q) return level;
    for (const cte of q.withClause?.ctes ?? []) {
      level.ctes.add(cte.CommonTableExpr.ctename);
      query(cte.CommonTableExpr.ctequery, level);
    }
    const quals: Node[] = [];
    if (tag === 'SelectStmt' && q.op && q.op !== 'SETOP_NONE') {
      query({ SelectStmt: q.larg }, level);
      query({ SelectStmt: q.rarg }, level);
      return level;
    }
    if (tag === 'UpdateStmt' || tag === 'DeleteStmt' || tag === 'InsertStmt')
      from({ RangeVar: q.relation }, level, quals);
    for (const item of q.fromClause ?? q.usingClause ?? []) from(item, level, quals);
    for (const c of [...conjuncts(q.whereClause), ...quals.flatMap(conjuncts)]) filter(c, level);
    sublinks([q.targetList, q.whereClause, q.havingClause, quals, q.returningList, q.valuesLists], level);
    if (tag === 'InsertStmt') insert(q, level);
    return level;
  }

  const insert = (q: Node, level: Level): void => {
    const target = level.instances[0];
    const dist = target?.facts?.kind === 'distributed' ? target.facts.column : undefined;
    if (!target || !dist) {
      if (q.selectStmt) query(q.selectStmt, level);
      return;
    }
    const cols: string[] = q.cols?.length
      ? q.cols.map((c: Node) => c.ResTarget.name)
      : [...(target.facts?.columns ?? [])];
    const pos = cols.indexOf(dist);
    const sel = q.selectStmt?.SelectStmt;
    // The target's columns are not visible in VALUES or the SELECT: `VALUES (no_w_id)` names the
    // variable no_w_id even when the target has a column of that name (HammerDB's style).
    const outside: Level = { parent: level.parent, instances: [], ctes: level.ctes };
    if (sel?.valuesLists) {
      sublinks(sel.valuesLists, outside);
      inserts.push({
        token: colToken(target, dist),
        values: sel.valuesLists.map((row: Node) => (pos < 0 ? undefined : token(row.List.items[pos], outside))),
      });
    } else if (sel) {
      const inner = query(q.selectStmt, outside);
      const val = pos < 0 ? undefined : sel.targetList?.[pos]?.ResTarget?.val;
      inserts.push({ token: colToken(target, dist), values: [val ? token(val, inner) : undefined] });
    }
  };

  query(stmt, undefined);
  return verdict(scope, { instances, colToken, classes, tokens, notes, inserts, describe });
}
