// A partition's copies of its parent's indexes keep the names the manifest gives (index_names) on
// Citus: renamed on the coordinator and on every shard on the workers (Citus propagates ALTER
// INDEX … RENAME of a distributed partition's index), for a partition that is there and for one
// the plan makes; introspect writes them back, and the next plan is empty.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const manifest = (names2024: string, extra: string): string => `version: 1
tables:
  events:
    distributed_by: w
    shard_count: 4
    columns: { w: bigint, ts: date, note: text }
    partition_by: range (ts)
    partitions:
      events_2024: { from: 2024-01-01, to: 2025-01-01${names2024} }
      events_2025: { from: 2025-01-01, to: 2026-01-01 }${extra}
    indexes:
      - { name: events_ts, columns: [ts] }
`;

describe.skipIf(!citus)('partition index names on Citus', () => {
  it("renames a distributed partition's index copies on every shard, for a partition there and one the plan makes", async () => {
    const db = await freshDatabase(citus!, 'part_index_names');
    const first = projectDir(manifest('', ''));
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: first })).code).toBe(0);
    const dir = projectDir(
      manifest(
        ', index_names: { events_ts: events_2024_by_ts }',
        '\n      events_2026: { from: 2026-01-01, to: 2027-01-01, index_names: { events_ts: events_2026_by_ts } }',
      ),
    );
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('rename index public.events_2024_ts_idx of partition public.events_2024');
    expect(r.stdout + r.stderr).toContain(
      'rename the new index public.events_2026_ts_idx of partition public.events_2026',
    );
    const names = `SELECT pg_catalog.regexp_replace(i.relname, '_[0-9]+$', '') AS name, count(*)::int AS n
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      WHERE t.relname ~ '^events_20[0-9]{2}(_[0-9]+)?$' GROUP BY 1 ORDER BY 1`;
    expect(await sql(citus!, db.name, [names])).toEqual([
      { name: 'events_2024_by_ts', n: 1 },
      { name: 'events_2025_ts_idx', n: 1 },
      { name: 'events_2026_by_ts', n: 1 },
    ]);
    // Each worker holds 2 of the 4 shards of each partition and the partition itself (Citus's metadata
    // copy), their indexes named after the coordinator's.
    for (let n = 1; n < citus!.nodes.length; n++)
      expect(await sql(citus!, db.name, ['SET citus.override_table_visibility TO off', names], n)).toEqual([
        { name: 'events_2024_by_ts', n: 3 },
        { name: 'events_2025_ts_idx', n: 3 },
        { name: 'events_2026_by_ts', n: 3 },
      ]);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
    const written = await cli(['introspect', '--database', db.url]);
    expect(written.stdout).toContain('index_names:\n          events_ts: events_2024_by_ts');
    expect(written.stdout).toContain('index_names:\n          events_ts: events_2026_by_ts');
  });
});
