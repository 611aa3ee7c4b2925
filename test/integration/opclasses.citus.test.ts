// Operator classes and families on Citus. Citus propagates neither, and refuses a Citus table whose
// index uses one of the user's (pinned below); a manifest whose sql: files index a distributed
// table with a class they declare gets a plan problem naming both declarations, and a local table
// of the coordinator keeps its index. docs/citus-facts.md.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const CLASS = `CREATE OPERATOR FAMILY len_ops USING hash;
CREATE OPERATOR CLASS len_ops FOR TYPE text USING hash FAMILY len_ops AS
    OPERATOR 1 =(text,text), FUNCTION 2 hash_len(text, bigint);
`;
const FUNCTION = `CREATE FUNCTION hash_len(v text, seed bigint) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT
  AS $$ SELECT length(v)::bigint $$;
`;

describe.skipIf(!citus)('operator classes and families on Citus', () => {
  it('Citus propagates neither, and refuses a distributed table or an index of one that uses a class of the user', async () => {
    const db = await freshDatabase(citus!, 'opclass_fact');
    await sql(citus!, db.name, [
      FUNCTION,
      CLASS,
      'CREATE TABLE t1 (k integer, w text)',
      'CREATE INDEX t1_w ON t1 USING hash (w len_ops)',
      'CREATE TABLE t2 (k integer, w text)',
      "SELECT create_distributed_table('t2', 'k')",
    ]);
    for (let n = 1; n < citus!.nodes.length; n++)
      expect(
        await sql(
          citus!,
          db.name,
          [
            "SELECT (SELECT count(*) FROM pg_opclass WHERE opcname = 'len_ops')::int AS c, (SELECT count(*) FROM pg_opfamily WHERE opfname = 'len_ops')::int AS f",
          ],
          n,
        ),
      ).toEqual([{ c: 0, f: 0 }]);
    await expect(sql(citus!, db.name, ["SELECT create_distributed_table('t1', 'k')"])).rejects.toThrow(
      /has dependency on unsupported object "operator class len_ops for access method hash"/,
    );
    await expect(sql(citus!, db.name, ['CREATE INDEX t2_w ON t2 USING hash (w len_ops)'])).rejects.toThrow(
      /has dependency on unsupported object "operator class len_ops for access method hash"/,
    );
  });

  it("a distributed table's index on a declared class is a plan problem; a local table's applies", async () => {
    const db = await freshDatabase(citus!, 'opclass_plan');
    const manifest = (how: string): string => `version: 1
tables:
  t:
    ${how}
    columns: { k: integer, w: text }
sql: [ops.sql]
`;
    const files = (how: string): Record<string, string> => ({
      'citus-migrate.yaml': manifest(how),
      'ops.sql': `${FUNCTION}${CLASS}CREATE INDEX t_w ON t USING hash (w len_ops);\n`,
    });
    const refused = await cli(['plan', '--database', db.url], { cwd: projectDir(files('distributed_by: k')) });
    expect(refused.code, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stdout + refused.stderr).toMatch(
      /index public\.t_w: declared at ops\.sql:6:1, it uses operator class public\.len_ops USING hash \(ops\.sql:4:1\), which Citus neither propagates/,
    );
    const dir = projectDir(files('local: true'));
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });
});
