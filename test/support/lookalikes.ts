// Look-alike operators, and what a query binds at parse time. An operator is chosen by the
// search_path when the query is parsed: a look-alike in public that matches the argument types
// exactly wins over pg_catalog's, whenever pg_catalog's needs a coercion (`'x' || int4`,
// `oid = int4`, arrays against anyarray). PostgreSQL records what a SQL-standard function body
// (BEGIN ATOMIC) binds in pg_depend, and dependencies on pg_catalog's own objects are not
// recorded: compiling a query as such a body and listing its dependencies on operators, functions
// and types names every look-alike it would run, on every branch, whatever rows exist.
import type pg from 'pg';

const COMPARISONS = new Set([
  '=',
  '<>',
  '<',
  '>',
  '<=',
  '>=',
  '~',
  '!~',
  '~~',
  '!~~',
  '~*',
  '!~*',
  '?',
  '@>',
  '<@',
  '&&',
]);

/** The result type a look-alike of `op` on (l, r) gets, so that the query around it still parses. */
function resultType(op: string, l: string, r: string): string {
  if (COMPARISONS.has(op)) return 'pg_catalog.bool';
  if (op === '||') return l.endsWith('[]') ? l : r.endsWith('[]') ? r : 'pg_catalog.text';
  if (op === '->>' || op === '#>>') return 'pg_catalog.text';
  return l;
}

/**
 * Plants in `schema`, for every operator name of pg_catalog spelled in `texts`, a look-alike on
 * every pair of argument types (of the catalog's columns, and the usual ones) that pg_catalog
 * has no operator for: one of them wins wherever pg_catalog's own needs a coercion. Returns the
 * number planted (tens of thousands: a few seconds).
 */
export async function plantOperatorLookalikes(c: pg.Client, texts: readonly string[], schema: string): Promise<number> {
  await c.query('SET search_path = pg_catalog, pg_temp');
  const all = texts.join('\n');
  const names = (
    await c.query<{ n: string }>(
      "SELECT DISTINCT oprname AS n FROM pg_catalog.pg_operator WHERE oprnamespace = 'pg_catalog'::pg_catalog.regnamespace",
    )
  ).rows
    .map((r) => r.n)
    .filter((n) => {
      const esc = n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return new RegExp(`(^|[\\s\\w)'"\\]])${esc}($|[\\s\\w('"])`).test(all);
    });
  for (const implicit of ['=', '<>', '<', '>', '<=', '>=', '~~']) if (!names.includes(implicit)) names.push(implicit);
  const types = (
    await c.query<{ t: string }>(`
    SELECT DISTINCT pg_catalog.format_type(t, NULL) AS t FROM (
      SELECT a.atttypid AS t FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class k ON k.oid = a.attrelid
       WHERE k.relnamespace = 'pg_catalog'::pg_catalog.regnamespace AND k.relkind IN ('r', 'v') AND a.attnum > 0
      UNION SELECT ty.typarray FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class k ON k.oid = a.attrelid
        JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
       WHERE k.relnamespace = 'pg_catalog'::pg_catalog.regnamespace AND k.relkind IN ('r', 'v') AND a.attnum > 0 AND ty.typarray <> 0
      UNION SELECT x::pg_catalog.regtype FROM pg_catalog.unnest(ARRAY['text', 'text[]', 'json', 'jsonb', 'json[]', 'jsonb[]',
        'int2', 'int4', 'int8', 'numeric', 'float8', 'bool', 'name', 'name[]', 'oid', 'oid[]', 'regclass', 'regtype',
        'regproc', 'regprocedure', 'regnamespace', 'regrole', 'regoper', 'regoperator', 'varchar', 'bpchar', 'bytea',
        'timestamptz', 'interval', 'int2[]', 'int4[]', 'int8[]', 'bool[]', '"char"[]', 'aclitem[]']) x) s
     WHERE t <> 0 AND NOT EXISTS (SELECT FROM pg_catalog.pg_type p WHERE p.oid = t AND p.typtype = 'p')`)
  ).rows.map((r) => r.t);
  const existing = new Set(
    (
      await c.query<{ k: string }>(
        `SELECT o.oprname || ' ' || pg_catalog.format_type(o.oprleft, NULL) || ' ' || pg_catalog.format_type(o.oprright, NULL) AS k
           FROM pg_catalog.pg_operator o WHERE o.oprnamespace = 'pg_catalog'::pg_catalog.regnamespace`,
      )
    ).rows.map((r) => r.k),
  );
  const statements: string[] = [];
  for (const op of names)
    for (const l of types)
      for (const r of types) {
        if (existing.has(`${op} ${l} ${r}`)) continue;
        const n = statements.length;
        const ret = resultType(op, l, r);
        statements.push(
          `CREATE FUNCTION ${schema}.cm_op_${n}(${l}, ${r}) RETURNS ${ret} LANGUAGE sql AS 'SELECT NULL::${ret}';
           CREATE OPERATOR ${schema}.${op} (LEFTARG = ${l}, RIGHTARG = ${r}, FUNCTION = ${schema}.cm_op_${n})`,
        );
      }
  // A transaction per 200: PostgreSQL 15.20 locks each object a new one depends on until COMMIT,
  // and thousands in one transaction ran the server out of lock slots ("out of shared memory").
  for (let i = 0; i < statements.length; i += 200)
    await c.query(`BEGIN;\n${statements.slice(i, i + 200).join(';\n')};\nCOMMIT`);
  return statements.length;
}

export interface Binding {
  /** The server's refusal to parse the query (a look-alike made it ill-typed), with the text around its position. */
  readonly error?: string;
  /** Each operator, function or type outside pg_catalog that the query binds: `operator public.||(integer,integer)`. */
  readonly outside: readonly string[];
}

/**
 * What `query` (one SELECT without parameters) binds when parsed under `searchPath`: compiled as
 * the body of a temporary SQL-standard function, whose pg_depend rows are then listed.
 */
export async function bindings(c: pg.Client, query: string, searchPath: string): Promise<Binding> {
  await c.query('SET search_path = pg_catalog, pg_temp');
  await c.query('DROP FUNCTION IF EXISTS pg_temp.cm_probe()');
  await c.query(`SET search_path = ${searchPath}`);
  const body = query.trim().replace(/;\s*$/, '');
  // The prefix before the query, to map the server's error position back into it.
  const head = 'CREATE FUNCTION pg_temp.cm_probe() RETURNS SETOF pg_catalog.record LANGUAGE sql BEGIN ATOMIC ';
  try {
    await c.query(`${head}${body}; END`);
  } catch (e) {
    const pos = Number((e as { position?: string }).position ?? 0) - head.length - 1;
    const around = pos >= 0 ? body.slice(Math.max(0, pos - 160), pos + 80) : '';
    await c.query('SET search_path = pg_catalog, pg_temp');
    return { error: `${(e as Error).message}${around ? `\n  at: …${around}…` : ''}`, outside: [] };
  }
  await c.query('SET search_path = pg_catalog, pg_temp');
  // Citus's own functions live in pg_catalog too, but are not pinned: only other schemas count.
  const r = await c.query<{ what: string }>(`
    SELECT x.what FROM pg_catalog.pg_depend d
      CROSS JOIN LATERAL (
        SELECT 'operator ' || o.oid::pg_catalog.regoperator::pg_catalog.text, o.oprnamespace
          FROM pg_catalog.pg_operator o WHERE d.refclassid = 'pg_catalog.pg_operator'::pg_catalog.regclass AND o.oid = d.refobjid
        UNION ALL
        SELECT 'function ' || p.oid::pg_catalog.regprocedure::pg_catalog.text, p.pronamespace
          FROM pg_catalog.pg_proc p WHERE d.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND p.oid = d.refobjid
        UNION ALL
        SELECT 'type ' || t.oid::pg_catalog.regtype::pg_catalog.text, t.typnamespace
          FROM pg_catalog.pg_type t WHERE d.refclassid = 'pg_catalog.pg_type'::pg_catalog.regclass AND t.oid = d.refobjid
      ) AS x(what, ns)
     WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = 'pg_temp.cm_probe()'::pg_catalog.regprocedure
       AND x.ns <> 'pg_catalog'::pg_catalog.regnamespace
     ORDER BY 1`);
  return { outside: r.rows.map((x) => x.what) };
}
