// Extended statistics objects (CREATE STATISTICS) on Citus: declared in the sql: files on a
// distributed table and on a Citus local table (whose shard is on the coordinator), applied in the
// plan's transaction, reaching every shard, planning empty, read back by introspect without the
// shards' own copies, and dropped from every shard by a prune.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const MANIFEST = (prune: boolean) => `version: 1
${prune ? 'prune: true\n' : ''}tables:
  app.events:
    columns:
      tenant_id: { type: bigint, not_null: true }
      kind: text
      city: text
    distributed_by: tenant_id
    shard_count: 4
  app.notes:
    citus_local: true
    columns:
      id: { type: bigint, not_null: true }
      body: text
sql: [sql]
`;
const STATISTICS = `CREATE STATISTICS app.kind_city (dependencies, ndistinct) ON kind, city FROM app.events;
ALTER STATISTICS app.kind_city SET STATISTICS 300;
COMMENT ON STATISTICS app.kind_city IS 'kind and city move together';
CREATE STATISTICS app.note_len ON id, length(body) FROM app.notes;
`;

describe.skipIf(!citus)('statistics objects on Citus', () => {
  it('apply on a distributed and a Citus local table, on every shard; plans empty; introspect reads them back; prune drops them', async () => {
    const db = await freshDatabase(citus!, 'stx');
    await db.query('CREATE SCHEMA app');
    const dir = mkdtempSync(join(tmpdir(), 'cm-stx-'));
    mkdirSync(join(dir, 'sql'));
    writeFileSync(join(dir, 'citus-migrate.yaml'), MANIFEST(false));
    writeFileSync(join(dir, 'sql', 'statistics.sql'), STATISTICS);
    const apply = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain('verified: planning again is empty');
    const onShards = async (table: string, q: string): Promise<number> =>
      (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM run_command_on_shards('${table}', $$${q}$$) WHERE success AND result = '1'`,
        )
      )[0]!.n;
    const shardStats = "SELECT count(*) FROM pg_statistic_ext WHERE stxrelid = '%s'::regclass";
    expect(await onShards('app.events', shardStats)).toBe(4);
    expect(await onShards('app.notes', shardStats)).toBe(1);
    // Citus copies the statistics target to the shards too.
    expect(
      await onShards(
        'app.events',
        `SELECT count(*) FROM pg_statistic_ext WHERE stxrelid = '%s'::regclass AND stxstattarget = 300`,
      ),
    ).toBe(4);

    // Read back: exactly the two declared objects (the Citus local table's shard on the coordinator keeps its own copy, not read).
    const out = mkdtempSync(join(tmpdir(), 'cm-stx-intro-'));
    const intro = await cli(['introspect', '--database', db.url, '--out', join(out, 'citus-migrate.yaml')]);
    expect(intro.code, intro.stderr).toBe(0);
    expect(intro.stderr, intro.stderr).not.toContain('statistics object');
    const written = readFileSync(join(out, 'sql', 'statistics.sql'), 'utf8');
    expect(written.match(/^CREATE STATISTICS/gm)).toHaveLength(2);
    expect(written).toContain('ALTER STATISTICS app.kind_city SET STATISTICS 300');
    const replan = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], {
      cwd: out,
    });
    expect(replan.code, replan.stdout + replan.stderr).toBe(0);

    // Declared no more, with prune: dropped, from the shards too.
    writeFileSync(join(dir, 'citus-migrate.yaml'), MANIFEST(true));
    writeFileSync(join(dir, 'sql', 'statistics.sql'), '');
    const drop = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(drop.code, drop.stderr).toBe(0);
    expect(drop.stderr).toContain('drop statistics object app.kind_city');
    expect(await onShards('app.events', shardStats.replace('count(*)', 'count(*) + 1'))).toBe(4);
    expect(await onShards('app.notes', shardStats.replace('count(*)', 'count(*) + 1'))).toBe(1);
  });
});
