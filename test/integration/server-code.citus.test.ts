// Objects built on the server's code on Citus. Citus 13 propagates none of CREATE ACCESS METHOD,
// CREATE FOREIGN DATA WRAPPER, CREATE LANGUAGE, CREATE TRANSFORM, CREATE EVENT TRIGGER, a base
// type and its functions, CREATE TEXT SEARCH TEMPLATE and PARSER (pinned here); it keeps a server
// on a wrapper of no extension, a routine in a language of its own and a configuration on a parser
// of its own on the coordinator ("has dependency on unsupported object"), and fails any Citus table
// made with an access method the workers lack or with a column of such a base type: the plan makes
// them on the coordinator, a Citus table that uses one is a plan problem, and the plan after is empty.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const FILES = `CREATE ACCESS METHOD heap2 TYPE TABLE HANDLER heap_tableam_handler;
CREATE FOREIGN DATA WRAPPER useless;
CREATE SERVER useless_server FOREIGN DATA WRAPPER useless;
CREATE TRUSTED LANGUAGE plsample HANDLER plpgsql_call_handler INLINE plpgsql_inline_handler VALIDATOR plpgsql_validator;
CREATE TYPE mood AS ENUM ('sad', 'ok');
CREATE TRANSFORM FOR mood LANGUAGE plsample (FROM SQL WITH FUNCTION pg_catalog.gtsvector_compress(internal));
CREATE EVENT TRIGGER noisy ON ddl_command_end WHEN TAG IN ('CREATE VIEW') EXECUTE FUNCTION on_ddl();
ALTER EVENT TRIGGER noisy DISABLE;
COMMENT ON ACCESS METHOD heap2 IS 'heap, by another name';
CREATE FUNCTION int42_in(cstring) RETURNS int42 LANGUAGE internal IMMUTABLE STRICT AS 'int4in';
CREATE FUNCTION int42_out(int42) RETURNS cstring LANGUAGE internal IMMUTABLE STRICT AS 'int4out';
CREATE TYPE int42 (INTERNALLENGTH = 4, INPUT = int42_in, OUTPUT = int42_out, PASSEDBYVALUE, ALIGNMENT = int4, STORAGE = plain);
CREATE TEXT SEARCH TEMPLATE tmpl (LEXIZE = dsimple_lexize);
CREATE TEXT SEARCH PARSER prs (START = prsd_start, GETTOKEN = prsd_nexttoken, END = prsd_end, LEXTYPES = prsd_lextype);
CREATE TEXT SEARCH CONFIGURATION cfg (PARSER = prs);
`;
const ROUTINE = `CREATE FUNCTION on_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$BEGIN RAISE NOTICE 'ddl'; END$$;\n`;

describe.skipIf(!citus)('objects built on the server’s code on Citus', () => {
  it('are made on the coordinator only; a Citus table with an access method of its own is a plan problem', async () => {
    const db = await freshDatabase(citus!, 'srvcode');
    const manifest = (table: string) =>
      `version: 1\ntables:\n  t:\n    ${table}\n    access_method: heap2\n    columns: { a: integer, b: int42 }\nroutines:\n  on_ddl: { file: on_ddl.sql, local: true }\nsql: [sql]\n`;
    const files = { 'sql/server-code.sql': FILES, 'on_ddl.sql': ROUTINE };
    // Declared a reference table: refused before anything runs.
    const refused = await cli(['apply', '--database', db.url, '--auto-approve'], {
      cwd: projectDir({ 'citus-migrate.yaml': manifest('reference: true'), ...files }),
    });
    expect(refused.code, refused.stdout + refused.stderr).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(
      /citus-migrate\.yaml:\d+:\d+: table public\.t: uses access method heap2, which Citus does not propagate/,
    );
    expect(
      (await sql<{ n: number }>(citus!, db.name, "SELECT count(*)::int AS n FROM pg_am WHERE amname = 'heap2'"))[0]!.n,
    ).toBe(0);

    expect(refused.stdout + refused.stderr).toMatch(
      /table public\.t: column b is of base type public\.int42 .*which Citus neither propagates/,
    );

    const dir = projectDir({ 'citus-migrate.yaml': manifest('local: true'), ...files });
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    const counts = async (node: number) =>
      (
        await sql<{ n: string }>(
          citus!,
          db.name,
          `SELECT concat_ws(' ', (SELECT count(*) FROM pg_am WHERE amname = 'heap2'),
             (SELECT count(*) FROM pg_foreign_data_wrapper WHERE fdwname = 'useless'),
             (SELECT count(*) FROM pg_foreign_server WHERE srvname = 'useless_server'),
             (SELECT count(*) FROM pg_language WHERE lanname = 'plsample'),
             (SELECT count(*) FROM pg_transform),
             (SELECT count(*) FROM pg_event_trigger WHERE evtname = 'noisy'),
             (SELECT count(*) FROM pg_type WHERE typname = 'int42'),
             (SELECT count(*) FROM pg_ts_template WHERE tmplname = 'tmpl'),
             (SELECT count(*) FROM pg_ts_parser WHERE prsname = 'prs'),
             (SELECT count(*) FROM pg_ts_config WHERE cfgname = 'cfg')) AS n`,
          node,
        )
      )[0]!.n;
    // Citus propagates none of them (the server stays on the coordinator with its wrapper).
    expect([await counts(0), await counts(1), await counts(2)]).toEqual([
      '1 1 1 1 1 1 1 1 1 1',
      '0 0 0 0 0 0 0 0 0 0',
      '0 0 0 0 0 0 0 0 0 0',
    ]);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
    // By hand: a window function in LANGUAGE internal is propagated as any other CREATE FUNCTION.
    await db.query(
      "CREATE FUNCTION nth(val anyelement, n integer = 1) RETURNS anyelement LANGUAGE internal WINDOW IMMUTABLE STRICT AS 'window_nth_value'",
    );
    const nth = async (node: number) =>
      (
        await sql<{ n: number }>(citus!, db.name, "SELECT count(*)::int AS n FROM pg_proc WHERE proname = 'nth'", node)
      )[0]!.n;
    expect([await nth(0), await nth(1), await nth(2)]).toEqual([1, 1, 1]);
  });
});
