// A PL/pgSQL routine body as PostgreSQL's own PL/pgSQL compiler reads it (libpg_query): the SQL
// statements it runs, each with its line, and its variables with what is assigned to them. Every
// expression PL/pgSQL evaluates is a SQL query underneath (`x := expr`, `IF cond`), so those are
// read too: a subquery in an assignment touches tables like any statement.
import { parsePlpgsql } from '../sql/plpgsql-check.js';
import { ParseFailure, parseStatements, type Node } from '../sql/pg-parse.js';

/** One SQL statement a routine runs. */
export interface EmbeddedSql {
  /** Line of the PL/pgSQL statement, counted from the line the body starts on (1). */
  readonly line: number;
  /** The statement as PL/pgSQL runs it (an expression `e` as `SELECT e`). */
  readonly sql: string;
  /** Set for EXECUTE of a string built at run time: what cannot be read, and why. */
  readonly dynamic?: string;
}

/** The body's variables: every name, and each one's assignments (an expression, or null: from a query or a loop). */
export interface BodyVariables {
  readonly names: ReadonlySet<string>;
  readonly assigned: ReadonlyMap<string, readonly (string | null)[]>;
}

export interface RoutineBody {
  readonly statements: readonly EmbeddedSql[];
  readonly variables: BodyVariables;
}

// Expression parse modes of PLpgSQL_expr (PostgreSQL's RawParseMode).
const MODE_STATEMENT = 0;
const MODE_ASSIGN = new Set([3, 4, 5]);

/** `x := e` or `x.f[1] = e` as PL/pgSQL stores an assignment: the expression e. */
function assignedExpression(query: string): string {
  const m = /^[^:=]*?(?::=|=)\s*/s.exec(query);
  return m ? query.slice(m[0].length) : query;
}

/** The SQL text of a constant string expression (EXECUTE 'SELECT …'), or undefined. */
function constantSql(expr: string): string | undefined {
  try {
    const stmt = parseStatements(`SELECT ${expr}`)[0]?.stmt?.SelectStmt;
    const only = stmt?.targetList?.length === 1 ? stmt.targetList[0].ResTarget?.val : undefined;
    const sval = only?.A_Const?.sval?.sval;
    return typeof sval === 'string' ? sval : undefined;
  } catch (e) {
    if (e instanceof ParseFailure) return undefined;
    throw e;
  }
}

/** Reads a routine's PL/pgSQL body; undefined when it does not compile (validate reports that). */
export function readBody(definition: string): RoutineBody | undefined {
  const tree = parsePlpgsql(definition);
  const fn = tree?.plpgsql_funcs?.[0]?.PLpgSQL_function;
  if (!fn) return undefined;
  const datums: Node[] = fn.datums ?? [];
  // libpg_query leaves zero-valued fields out of its JSON: a missing varno is datum 0.
  const nameOf = (dno: number | undefined): string | undefined => {
    const d = datums[dno ?? 0];
    const inner = d && (Object.values(d)[0] as Node);
    return typeof inner?.refname === 'string' && !inner.refname.startsWith('(') ? inner.refname : undefined;
  };
  const names = new Set<string>();
  const assigned = new Map<string, (string | null)[]>();
  const assign = (name: string | undefined, value: string | null): void => {
    if (name === undefined) return;
    const list = assigned.get(name) ?? [];
    list.push(value);
    assigned.set(name, list);
  };
  const statements: EmbeddedSql[] = [];
  // A datum's declaration: `v integer := p_w_id` is an assignment; a cursor's query is a statement.
  datums.forEach((d: Node) => {
    const [tag, inner] = Object.entries(d)[0] as [string, Node];
    if (typeof inner?.refname === 'string' && !inner.refname.startsWith('(') && tag !== 'PLpgSQL_recfield')
      names.add(inner.refname);
    if (inner?.default_val?.PLpgSQL_expr) {
      assign(inner.refname, inner.default_val.PLpgSQL_expr.query);
      statements.push({ line: inner.lineno ?? 1, sql: `SELECT ${inner.default_val.PLpgSQL_expr.query}` });
    }
    if (inner?.cursor_explicit_expr?.PLpgSQL_expr)
      statements.push({ line: inner.lineno ?? 1, sql: inner.cursor_explicit_expr.PLpgSQL_expr.query });
  });
  // A target assigned from a query or a loop: a var, a row of vars, or a record.
  const assignedByQuery = (target: Node): void => {
    if (!target) return;
    const [tag, inner] = Object.entries(target)[0] as [string, Node];
    if (tag === 'PLpgSQL_row') for (const f of inner.fields ?? []) assign(nameOf(f.varno) ?? f.name, null);
    else assign(inner?.refname, null);
  };

  const visit = (node: Node, line: number, parentTag: string): void => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n, line, parentTag);
      return;
    }
    if (!node || typeof node !== 'object') return;
    for (const [tag, inner] of Object.entries(node) as [string, Node][]) {
      if (!tag.startsWith('PLpgSQL_stmt_')) {
        if (tag === 'PLpgSQL_expr') expression(inner, line, parentTag);
        else if (inner && typeof inner === 'object')
          visit(inner, line, tag.startsWith('PLpgSQL_') ? parentTag : `${parentTag}.${tag}`);
        continue;
      }
      const at: number = inner.lineno ?? line;
      switch (tag) {
        case 'PLpgSQL_stmt_assign':
          assign(nameOf(inner.varno), assignedExpression(inner.expr?.PLpgSQL_expr?.query ?? ''));
          break;
        case 'PLpgSQL_stmt_execsql':
        case 'PLpgSQL_stmt_fetch':
        case 'PLpgSQL_stmt_dynexecute':
        case 'PLpgSQL_stmt_call':
          if (inner.into || tag === 'PLpgSQL_stmt_fetch') assignedByQuery(inner.target);
          break;
        case 'PLpgSQL_stmt_fors':
        case 'PLpgSQL_stmt_forc':
        case 'PLpgSQL_stmt_dynfors':
        case 'PLpgSQL_stmt_fori':
          assignedByQuery(inner.var);
          break;
        case 'PLpgSQL_stmt_foreach_a':
          assign(nameOf(inner.varno), null);
          break;
        case 'PLpgSQL_stmt_getdiag':
          for (const item of inner.diag_items ?? []) assign(nameOf(item.target), null);
          break;
        default:
          break;
      }
      for (const [key, value] of Object.entries(inner) as [string, Node][]) {
        if (key === 'target' || key === 'var') continue;
        visit(value, at, `${tag}.${key}`);
      }
    }
  };

  const expression = (expr: Node, line: number, where: string): void => {
    const query: string = expr?.query ?? '';
    const dynamic = /dynexecute\.query|dynfors\.query|return_query\.dynquery|open\.dynquery/.test(where);
    if (dynamic) {
      const text = constantSql(query);
      statements.push(
        text !== undefined
          ? { line, sql: text }
          : { line, sql: query, dynamic: 'EXECUTE of a string built at run time' },
      );
      return;
    }
    if (/dynexecute\.params|dynfors\.params/.test(where)) return; // USING values: plain expressions
    if (expr.parseMode === MODE_STATEMENT) statements.push({ line, sql: query });
    else if (MODE_ASSIGN.has(expr.parseMode)) statements.push({ line, sql: `SELECT ${assignedExpression(query)}` });
    else statements.push({ line, sql: `SELECT ${query}` });
  };

  visit(fn.action, 1, '');
  return { statements, variables: { names, assigned } };
}
