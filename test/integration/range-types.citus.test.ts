// Range types on Citus. Citus neither propagates CREATE TYPE … AS RANGE nor distributes a table
// that uses one (pinned below); a manifest that distributes such a table gets a plan problem
// naming the type's declaration, and a local table of the coordinator keeps it.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

describe.skipIf(!citus)('range types on Citus', () => {
  it('Citus refuses to distribute a table that uses a range type, and leaves the type on the coordinator', async () => {
    const db = await freshDatabase(citus!, 'range_fact');
    await sql(citus!, db.name, [
      'CREATE SCHEMA rr',
      'CREATE TYPE rr.floatrange AS RANGE (subtype = float8)',
      'CREATE TABLE rr.t (k integer, r rr.floatrange)',
    ]);
    await expect(sql(citus!, db.name, ["SELECT create_distributed_table('rr.t', 'k')"])).rejects.toThrow(
      /has dependency on unsupported object "type rr.floatrange"/,
    );
    for (let n = 1; n < citus!.nodes.length; n++)
      expect(
        await sql(citus!, db.name, ["SELECT count(*)::int AS n FROM pg_type WHERE typname = 'floatrange'"], n),
      ).toEqual([{ n: 0 }]);
  });

  it('a distributed table with a range-typed column is a plan problem; a local one applies', async () => {
    const db = await freshDatabase(citus!, 'range_plan');
    const manifest = (how: string): string => `version: 1
defaults: { schema: app }
tables:
  t:
    ${how}
    columns: { k: integer, r: app.floatrange, m: app.floatmultirange }
sql: [types.sql]
`;
    const types = 'CREATE TYPE floatrange AS RANGE (subtype = float8, subtype_diff = float8mi);\n';
    const refused = await cli(['plan', '--database', db.url], {
      cwd: projectDir({ 'citus-migrate.yaml': manifest('distributed_by: k'), 'types.sql': types }),
    });
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain(
      'column r is of range type app.floatrange (types.sql:1:1), which Citus neither propagates',
    );
    expect(refused.stdout + refused.stderr).toContain('column m is of range type app.floatrange');
    const dir = projectDir({ 'citus-migrate.yaml': manifest('local: true'), 'types.sql': types });
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });
});
