// Everything a lower role that owns the database can plant to make the tool's SQL run its code:
// for every function, type and relation name the tool's statements use, a look-alike in public
// (functions with pg_catalog's own signatures, and with text arguments, which win over a
// regclass or an integer for an untyped literal; domains named like built-in types whose CHECK
// runs the trap; views named like catalogs), look-alike operators on every pair of types
// pg_catalog has no exact operator for, and the database's search_path set to put public first.
import { quoteIdent, quoteLiteral } from '../../src/sql/quote.js';
import { sql, type TestDb } from './db.js';
import type { Hostile } from './hostile.js';
import type { ServerInfo } from './servers.js';
import { loadParser, tryParseStatements, type Node } from '../../src/sql/pg-parse.js';

/** Function, type and relation names (schema dropped) that `texts` use, and the operator names they spell. */
export async function namesUsed(
  texts: readonly string[],
): Promise<{ functions: string[]; types: string[]; relations: string[] }> {
  await loadParser();
  const functions = new Set<string>();
  const types = new Set<string>();
  const relations = new Set<string>();
  const last = (list: Node[] | undefined): string | undefined => {
    const x = list?.[list.length - 1];
    return x?.String?.sval ?? x?.String?.str;
  };
  for (const text of texts) {
    const stack: Node[] = [...(tryParseStatements(text) ?? [])];
    while (stack.length > 0) {
      const n = stack.pop();
      if (Array.isArray(n)) stack.push(...n);
      else if (n && typeof n === 'object')
        for (const [k, v] of Object.entries(n) as [string, Node][]) {
          if (k === 'FuncCall') {
            const f = last(v.funcname);
            if (f) functions.add(f);
          } else if (k === 'TypeName') {
            const t = last(v.names);
            if (t) types.add(t);
          } else if (k === 'RangeVar' && v.relname?.startsWith('pg_')) relations.add(v.relname);
          stack.push(v);
        }
    }
  }
  return { functions: [...functions].sort(), types: [...types].sort(), relations: [...relations].sort() };
}

/** Runs each statement on its own, ignoring the ones PostgreSQL refuses (a signature plpgsql cannot take). */
async function each(
  info: ServerInfo,
  db: TestDb,
  node: number,
  role: string,
  statements: readonly string[],
): Promise<number> {
  let made = 0;
  for (let i = 0; i < statements.length; i += 200) {
    const chunk = statements.slice(i, i + 200);
    const block = chunk
      .map((s) => `BEGIN EXECUTE ${quoteLiteral(s)}; n := n + 1; EXCEPTION WHEN OTHERS THEN NULL; END;`)
      .join('\n');
    const [row] = await sql<{ n: number }>(
      info,
      db.name,
      [
        'SET citus.enable_ddl_propagation TO off',
        `SET ROLE ${quoteIdent(role)}`,
        'CREATE TEMP TABLE cm_made (n int)',
        `DO $plant$ DECLARE n int := 0; BEGIN ${block} INSERT INTO cm_made VALUES (n); END $plant$`,
        'SELECT pg_catalog.sum(n)::int AS n FROM cm_made',
      ],
      node,
    );
    made += row!.n;
  }
  return made;
}

/**
 * Plants the look-alikes for `texts` on every node (Citus does not propagate them: DDL
 * propagation off) and sets the database's search_path and the settings the tool depends on
 * to what would hurt it. Returns how many objects were planted on the coordinator.
 */
export async function plantEverything(
  info: ServerInfo,
  db: TestDb,
  h: Hostile,
  texts: readonly string[],
  settings: readonly (readonly [string, string])[] = HOSTILE_SETTINGS,
): Promise<number> {
  const used = await namesUsed(texts);
  let planted = 0;
  for (const node of info.nodes.keys()) {
    // The trap, as a function every look-alike calls.
    await h.run(
      [
        'SET citus.enable_ddl_propagation TO off',
        `CREATE OR REPLACE FUNCTION public.cm_trap() RETURNS boolean LANGUAGE plpgsql AS $t$${h.trapBody('true')}$t$`,
      ],
      node,
    );
    const [catalog] = await sql<{ fns: string[]; ops: string[]; types: string[] }>(
      info,
      db.name,
      `SELECT
        (SELECT pg_catalog.array_agg(DISTINCT pg_catalog.format('CREATE FUNCTION public.%I(%s) RETURNS %s%s LANGUAGE plpgsql AS %L',
            p.proname, pg_catalog.oidvectortypes(p.proargtypes), CASE WHEN p.proretset THEN 'SETOF ' ELSE '' END,
            pg_catalog.format_type(p.prorettype, NULL), 'BEGIN PERFORM public.cm_trap(); RETURN NULL; END'))
           FROM pg_catalog.pg_proc p WHERE p.pronamespace = 'pg_catalog'::pg_catalog.regnamespace
            AND p.proname = ANY (${quoteLiteral(`{${used.functions.map((f) => `"${f}"`).join(',')}}`)}::pg_catalog.text[])) AS fns,
        (SELECT pg_catalog.array_agg(DISTINCT pg_catalog.format('CREATE DOMAIN public.%I AS pg_catalog.%I CHECK (public.cm_trap())', t.typname, t.typname))
           FROM pg_catalog.pg_type t WHERE t.typnamespace = 'pg_catalog'::pg_catalog.regnamespace AND t.typtype = 'b'
            AND t.typname = ANY (${quoteLiteral(`{${[...used.types, 'text', 'int4', 'int8', 'oid', 'name', 'regclass', 'json', 'jsonb', 'bool', 'numeric', 'regprocedure', 'regnamespace', 'timestamptz', 'interval', 'varchar'].map((t) => `"${t}"`).join(',')}}`)}::pg_catalog.text[])) AS types,
        ARRAY[]::pg_catalog.text[] AS ops`,
      node,
    );
    const textVariants = used.functions.flatMap((f) =>
      [0, 1, 2, 3, 4, 5].map(
        (n) =>
          `CREATE FUNCTION public.${quoteIdent(f)}(${Array.from({ length: n }, () => 'text').join(', ')}) RETURNS text LANGUAGE plpgsql AS 'BEGIN PERFORM public.cm_trap(); RETURN NULL; END'`,
      ),
    );
    const views = used.relations.map(
      (r) => `CREATE VIEW public.${quoteIdent(r)} AS SELECT * FROM pg_catalog.${quoteIdent(r)} WHERE public.cm_trap()`,
    );
    // Types only on the coordinator: a type named like a built-in one on a worker breaks Citus's own
    // metadata sync (docs/citus-facts.md), which is not what this test is about.
    const made = await each(info, db, node, h.role, [
      ...(node === 0 ? (catalog!.types ?? []) : []),
      ...(catalog!.fns ?? []),
      ...textVariants,
      ...views,
    ]);
    if (node === 0) planted = made;
  }
  // The database's own settings: its owner may set any of these for every session, the tool's too.
  for (const node of info.nodes.keys())
    for (const [name, value] of settings)
      await sql(
        info,
        db.name,
        [`SET ROLE ${quoteIdent(h.role)}`, `ALTER DATABASE ${quoteIdent(db.name)} SET ${name} = ${value}`],
        node,
      ).catch((e: Error) => {
        throw new Error(`ALTER DATABASE … SET ${name} as the database's owner: ${e.message}`);
      });
  return planted;
}

/** Settings a database's owner may set (ALTER DATABASE … SET) that would make the tool lie or lend its privileges. */
export const HOSTILE_SETTINGS: readonly (readonly [string, string])[] = [
  ['search_path', 'public, pg_catalog'],
  ['TimeZone', "'Pacific/Chatham'"],
  ['DateStyle', "'SQL, DMY'"],
  ['IntervalStyle', "'sql_standard'"],
  ['extra_float_digits', '-15'],
  ['bytea_output', "'escape'"],
  ['check_function_bodies', 'off'],
];

/** Citus settings of the same kind (USERSET: a database's owner may set them). */
export const HOSTILE_CITUS_SETTINGS: readonly (readonly [string, string])[] = [
  ['citus.enable_ddl_propagation', 'off'],
  ['citus.enable_metadata_sync', 'off'],
  ['citus.enable_schema_based_sharding', 'on'],
  ['citus.use_citus_managed_tables', 'on'],
  ['citus.shard_replication_factor', '2'],
  ['citus.create_object_propagation', "'deferred'"],
  ['citus.propagate_set_commands', "'none'"],
  // With citus_columnar installed (by a superuser), every table created without USING is columnar.
  ['default_table_access_method', "'columnar'"],
];
