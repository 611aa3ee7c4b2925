// A table partitioned by an expression, declared by hand in the manifest as a user writes it
// (`range ((date_trunc('day', at AT TIME ZONE 'UTC')))`, bounds as dates): applied, the next
// plan is empty although PostgreSQL prints the key and the bounds its own way
// (`date_trunc('day'::text, …)`, `'2024-01-01 00:00:00'`); a partition added later is the only
// step; a changed key is a plan problem, not a silent change. On Citus the table is distributed
// with its partitions: Citus 13 takes an expression key (pinned in docs/citus-facts.md).
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, plainServers, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';
import type { ServerInfo } from '../support/servers.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const citus = citusServers();

const manifest = (
  layout: string,
  partitions: string,
  key = "range ((date_trunc('day', at AT TIME ZONE 'UTC')))",
): string => `version: 1
${layout.includes('colocation') ? 'colocation: { g: { shard_count: 4 } }\n' : ''}tables:
  ev:
    ${layout}
    columns: { tenant: { type: integer, not_null: true }, at: { type: timestamptz, not_null: true }, body: text }
    partition_by: ${JSON.stringify(key)}
    partitions:
${partitions}
  tags:
    local: true
    columns: { id: integer, tag: varchar(20) }
    partition_by: list (lower(tag))
    partitions:
      tags_ab: { in: [a, b] }
      tags_rest: { default: true }
`;
const JAN = "      ev_2024_01: { from: '2024-01-01', to: '2024-02-01' }\n";
const FEB = "      ev_2024_02: { from: '2024-02-01', to: '2024-03-01' }\n";

async function roundTrip(info: ServerInfo, prefix: string, layout: string): Promise<string> {
  const db = await freshDatabase(info, prefix);
  const dir = projectDir(manifest(layout, JAN));
  const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
  expect(again.code, again.stdout + again.stderr).toBe(0);
  expect(
    await sql(info, db.name, [
      "SELECT pg_get_partkeydef('ev'::regclass) AS key, pg_get_expr(relpartbound, oid) AS bound FROM pg_class WHERE relname = 'ev_2024_01'",
    ]),
  ).toEqual([
    {
      key: "RANGE (date_trunc('day'::text, (at AT TIME ZONE 'UTC'::text)))",
      bound: "FOR VALUES FROM ('2024-01-01 00:00:00') TO ('2024-02-01 00:00:00')",
    },
  ]);
  writeFileSync(join(dir, 'citus-migrate.yaml'), manifest(layout, JAN + FEB));
  const add = await cli(['plan', '--database', db.url, '--format', 'sql'], { cwd: dir });
  expect(add.stdout).toContain(
    "CREATE TABLE public.ev_2024_02 PARTITION OF public.ev FOR VALUES FROM ('2024-02-01') TO ('2024-03-01');",
  );
  expect(add.stdout.match(/^-- \[\d+\]/gm)).toHaveLength(1);
  expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir })).code).toBe(0);
  expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  writeFileSync(
    join(dir, 'citus-migrate.yaml'),
    manifest(layout, JAN + FEB, "range ((date_trunc('month', at AT TIME ZONE 'UTC')))"),
  );
  const changed = await cli(['plan', '--database', db.url], { cwd: dir });
  expect(changed.code).not.toBe(0);
  expect(changed.stdout + changed.stderr).toMatch(
    /citus-migrate\.yaml:[45]:5: public\.ev: is partitioned by RANGE \(date_trunc\('day'::text.* in the cluster and partitioned by range \(\(date_trunc\('month'.* in the manifest; PostgreSQL cannot change this in place/,
  );
  return db.name;
}

describe('a table partitioned by an expression, declared in the manifest', () => {
  it('plain PostgreSQL: applied, planned empty, a partition added later, a changed key refused', async () => {
    await roundTrip(plainServers(), 'part_expr', 'local: true');
  });

  it.skipIf(!citus)('Citus: distributed with its partitions, each partition with its shards', async () => {
    const name = await roundTrip(citus!, 'part_expr_citus', 'distributed_by: tenant\n    colocation: g');
    expect(
      await sql(citus!, name, [
        "SELECT logicalrelid::text AS t, (SELECT count(*)::int FROM pg_dist_shard s WHERE s.logicalrelid = p.logicalrelid) AS shards FROM pg_dist_partition p WHERE logicalrelid::text LIKE 'ev%' ORDER BY 1",
      ]),
    ).toEqual([
      { t: 'ev', shards: 4 },
      { t: 'ev_2024_01', shards: 4 },
      { t: 'ev_2024_02', shards: 4 },
    ]);
  });
});
