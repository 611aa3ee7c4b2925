// What the tool sends, and whether each statement names its functions, types and relations with
// their schema. A name written without one is looked up along the session's search_path, which
// the database's owner may set (`ALTER DATABASE … SET search_path = public, pg_catalog`): then a
// function, type or view of the same name in public stands in for pg_catalog's.
import pg from 'pg';
import { loadParser, tryParseStatements, type Node } from '../../src/sql/pg-parse.js';
import { loadPlpgsqlParser, parsePlpgsql } from '../../src/sql/plpgsql-check.js';

/** Records the text of every query sent through `pg` (in this process) until `stop` is called. */
export function recordQueries(): { texts: string[]; stop: () => void } {
  const texts: string[] = [];
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; statements?: readonly string[] } | undefined;
    if (typeof first === 'string') texts.push(first);
    else if (first && typeof first.text === 'string') texts.push(first.text);
    else if (first && Array.isArray(first.statements)) texts.push(...first.statements);
    // A statement passed as a value, to run on every node (run_command_on_all_nodes($1, …)).
    for (const v of Array.isArray(args[1]) ? (args[1] as unknown[]) : [])
      if (typeof v === 'string' && /^\s*(SELECT|WITH|SET)\b/i.test(v)) texts.push(v);
    return original.apply(this, args);
  };
  return { texts, stop: () => void (proto.query = original) };
}

/** Every key/value pair of a parse tree, depth first, without recursion. */
function* walk(root: Node): Generator<[string, Node]> {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const n = stack.pop();
    if (Array.isArray(n)) {
      for (const x of n) stack.push(x);
    } else if (n && typeof n === 'object') {
      for (const [k, v] of Object.entries(n)) {
        yield [k, v];
        stack.push(v);
      }
    }
  }
}

const nameOf = (list: Node[] | undefined): string[] =>
  (list ?? []).map((x: Node) => x?.String?.sval ?? x?.String?.str ?? '?');

/**
 * The functions, types and relations `sql` names without a schema: `function json_agg`,
 * `type text`, `relation pg_locks`. Names the statement defines itself (CTEs) are not counted;
 * grammar forms that PostgreSQL's parser qualifies itself (`integer`, `substring(x from y)`)
 * are qualified already. A text the parser refuses is returned as `unparsed: …`.
 */
export async function unqualifiedNames(sql: string): Promise<string[]> {
  await loadParser();
  const stmts = tryParseStatements(sql);
  if (!stmts) return [`unparsed: ${sql.slice(0, 120)}`];
  const out = new Set<string>();
  for (const stmt of stmts) {
    const ctes = new Set<string>();
    for (const [k, v] of walk(stmt)) if (k === 'CommonTableExpr') ctes.add(v.ctename);
    for (const [k, v] of walk(stmt)) {
      if (k === 'FuncCall') {
        const name = nameOf(v.funcname);
        if (name.length < 2) out.add(`function ${name.join('.')}`);
        // The statement a run_command_on_* call sends to the nodes, as a constant: checked too.
        // (run_command_on_shards and the placements' take the table first, and a format() template
        // of the command, its %s / %L / %I the shard's name: read with a name in their place.)
        const fn = name[name.length - 1] ?? '';
        const arg = v.args?.[/^run_command_on_(shards|placements|colocated_placements)$/.test(fn) ? 1 : 0];
        const constant = arg?.A_Const?.sval?.sval ?? arg?.TypeCast?.arg?.A_Const?.sval?.sval;
        const sent =
          typeof constant === 'string' && fn !== 'run_command_on_workers' && fn !== 'run_command_on_all_nodes'
            ? constant.replace(/%(\d+\$)?L/g, "'x'").replace(/%(\d+\$)?[sI]/g, 'x')
            : constant;
        if (/^run_command_on_/.test(fn) && typeof sent === 'string')
          for (const n of await unqualifiedNames(sent)) out.add(`${n} (sent to the nodes)`);
      } else if (k === 'DoStmt') {
        // A DO block's statements and expressions, read with PL/pgSQL's own compiler.
        const body = (v.args ?? []).find((a: Node) => a?.DefElem?.defname === 'as')?.DefElem?.arg?.String?.sval;
        if (typeof body === 'string') for (const n of await doBlockNames(body)) out.add(`${n} (in a DO block)`);
      } else if (k === 'TypeName' || k === 'typeName') {
        const name = nameOf(v.names);
        if (name.length < 2) out.add(`type ${name.join('.')}`);
      } else if (k === 'RangeVar' || (k === 'relation' && v && typeof v.relname === 'string')) {
        if (!v.schemaname && !ctes.has(v.relname)) out.add(`relation ${v.relname}`);
      }
    }
  }
  return [...out].sort();
}

/** What a DO block's PL/pgSQL body names without a schema: its statements', expressions' and variables' types. */
async function doBlockNames(body: string): Promise<string[]> {
  await loadPlpgsqlParser();
  let tag = '$audit$';
  for (let i = 0; body.includes(tag); i++) tag = `$audit${i}$`;
  const tree: Node = parsePlpgsql(
    `CREATE FUNCTION pg_temp.audit_do() RETURNS void LANGUAGE plpgsql AS ${tag}${body}${tag}`,
  );
  if (!tree) return [`unparsed DO block: ${body.slice(0, 120)}`];
  const out: string[] = [];
  for (const [k, v] of walk(tree)) {
    if (k === 'PLpgSQL_expr' && typeof v.query === 'string')
      // parseMode 0: a statement; otherwise an expression (an IF's, an assignment's, a RAISE's).
      // (3–5: an assignment, `target := expression`.)
      out.push(
        ...(await unqualifiedNames(
          v.parseMode === 0 ? v.query : `SELECT ${v.parseMode >= 3 ? v.query.replace(/^[^:]*:=/, '') : v.query}`,
        )),
      );
    else if (k === 'PLpgSQL_var' && v.refname !== 'found' && typeof v.datatype?.PLpgSQL_type?.typname === 'string')
      out.push(...(await unqualifiedNames(`SELECT NULL::${v.datatype.PLpgSQL_type.typname}`)));
  }
  return out;
}
