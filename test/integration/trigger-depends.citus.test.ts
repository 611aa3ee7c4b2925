// ALTER TRIGGER … DEPENDS ON EXTENSION on a Citus table: Citus refuses it (pinned here and in
// docs/citus-facts.md), so a trigger of the sql: files declared so on a distributed table of the
// manifest is a plan problem at its statement, never a failed apply. On a local table beside
// them it is made as on PostgreSQL (comments-named.test.ts has the round trip).
import { describe, expect, it } from 'vitest';
import { citusServers, firstError, freshDatabase } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

describe.skipIf(!citus)("a trigger's DEPENDS ON EXTENSION on Citus", () => {
  it('Citus refuses it on a distributed table', async () => {
    const db = await freshDatabase(citus!, 'trigger_depends');
    expect(
      await firstError(db.url, [
        'CREATE EXTENSION IF NOT EXISTS hstore',
        'CREATE TABLE dt (tenant int, a int)',
        "SELECT create_distributed_table('dt', 'tenant', shard_count => 2)",
        "CREATE FUNCTION dtf() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END'",
        'SET citus.enable_unsafe_triggers TO on',
        'CREATE TRIGGER dtg BEFORE INSERT ON dt FOR EACH ROW EXECUTE FUNCTION dtf()',
        'ALTER TRIGGER dtg ON dt DEPENDS ON EXTENSION hstore',
      ]),
    ).toBe(
      'trigger "dtg" depends on an extension and this is not supported for distributed tables and local tables added to metadata',
    );
  });

  it('declared on a distributed table of the manifest, it is a plan problem at its statement', async () => {
    const db = await freshDatabase(citus!, 'trigger_depends_plan');
    const dir = projectDir({
      'citus-migrate.yaml': `version: 1
tables:
  dt: { distributed_by: tenant, shard_count: 2, columns: { tenant: integer, a: integer } }
  lt: { local: true, columns: { a: integer } }
sql: [objects.sql]
`,
      'objects.sql': `CREATE EXTENSION IF NOT EXISTS hstore;
CREATE FUNCTION tf() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END';
CREATE TRIGGER dtg BEFORE INSERT ON dt FOR EACH ROW EXECUTE FUNCTION tf();
ALTER TRIGGER dtg ON dt DEPENDS ON EXTENSION hstore;
CREATE TRIGGER ltg BEFORE INSERT ON lt FOR EACH ROW EXECUTE FUNCTION tf();
ALTER TRIGGER ltg ON lt DEPENDS ON EXTENSION hstore;
`,
    });
    const r = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(
      /trigger public\.dt\.dtg: declared at objects\.sql:3.*DEPENDS ON EXTENSION, which Citus refuses/,
    );
    expect(r.stdout + r.stderr).not.toMatch(/public\.lt\.ltg: declared/);
  });
});
