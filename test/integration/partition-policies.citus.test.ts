// A partition's own row-level security and policies (ALTER TABLE partition ENABLE ROW LEVEL
// SECURITY, CREATE POLICY … ON partition), declared in a sql: file: applied, planned empty, and
// adopted again by introspect. On Citus a partition of a distributed table gets them on each of
// its shards (pinned: docs/citus-facts.md). Before, they were named as not managed.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, plainServers, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';
import type { ServerInfo } from '../support/servers.js';

const citus = citusServers();

const files = (layout: string): Record<string, string> => ({
  'citus-migrate.yaml': `version: 1
tables:
  m:
    ${layout}
    columns: { tenant: { type: integer, not_null: true }, d: { type: date, not_null: true } }
    partition_by: range (d)
    partitions:
      m2020: { from: '2020-01-01', to: '2021-01-01' }
      m2021: { from: '2021-01-01', to: '2022-01-01' }
sql: [policies.sql]
`,
  'policies.sql': `ALTER TABLE m2021 ENABLE ROW LEVEL SECURITY;
CREATE POLICY m2021_recent ON m2021 FOR SELECT USING (d > '2021-06-01');
COMMENT ON POLICY m2021_recent ON m2021 IS 'the second half only';
`,
});

async function applied(info: ServerInfo, prefix: string, layout: string): Promise<string> {
  const db = await freshDatabase(info, prefix);
  const dir = projectDir(files(layout));
  const r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'widens_access'], {
    cwd: dir,
  });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stderr + r.stdout).toContain('create policy public.m2021.m2021_recent');
  const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
  expect(again.code, again.stdout + again.stderr).toBe(0);
  const intro = await cli(['introspect', '--database', db.url, '-o', 'back/citus-migrate.yaml'], { cwd: dir });
  expect(intro.code, intro.stderr).toBe(0);
  expect(intro.stderr).not.toContain('partition policy');
  const self = await cli(['plan', '--database', db.url, '--detailed-exitcode', '-f', 'back/citus-migrate.yaml'], {
    cwd: dir,
  });
  expect(self.code, self.stdout + self.stderr).toBe(0);
  return db.name;
}

describe("a partition's own row-level security and policies", () => {
  it('plain PostgreSQL: applied, planned empty, adopted again', async () => {
    await applied(plainServers(), 'part_policy', 'local: true');
  });

  it.skipIf(!citus)("Citus: a distributed table's partition has them on each of its shards", async () => {
    const name = await applied(citus!, 'part_policy_citus', 'distributed_by: tenant\n    shard_count: 2');
    for (let n = 1; n < citus!.nodes.length; n++)
      expect(
        await sql(
          citus!,
          name,
          [
            'SET citus.override_table_visibility TO off',
            "SELECT c.relname ~ '^m2021_[0-9]+$' AS shard, c.relrowsecurity AS rls, (SELECT count(*)::int FROM pg_policy p WHERE p.polrelid = c.oid) AS policies FROM pg_class c WHERE c.relname ~ '^m2021_[0-9]+$' ORDER BY 1",
          ],
          n,
        ),
      ).toEqual([{ shard: true, rls: true, policies: 1 }]);
  });
});
