// Plans computed from a stale read, on Citus: the column another session changes between the
// plan's catalog read and its transaction is on a distributed table (the ALTER goes through the
// coordinator to every shard). The transaction's lock on the coordinator's table keeps DDL through
// the coordinator out from before its first step; its second read refuses the stale plan (exit 5),
// and the rows on the shards keep their 4 decimals.
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apply, CmError } from '../../src/index.js';
import { cli } from '../support/run-cli.js';
import { citusServers, freshDatabase, pollCount, type TestDb } from '../support/db.js';
import { projectDir } from '../support/project.js';

const citus = citusServers();

const MANIFEST = `version: 1
tables:
  amounts:
    distributed_by: id
    shard_count: 4
    columns: { id: { type: integer, not_null: true }, amount: "numeric(12,2)" }
    primary_key: [id]
  zz_local:
    local: true
    columns: { id: { type: integer, not_null: true }, note: text }
    primary_key: [id]
`;

const allowHazards = new Set(['rewrites_table'] as const);
const file = (): string => join(projectDir(MANIFEST, 'cm-stale-citus-'), 'citus-migrate.yaml');

/** Runs statements one by one on a connection of its own (Citus sends an ALTER's whole message to the shards). */
async function elsewhere(url: string, ...statements: string[]): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (const s of statements) await c.query(s);
  } finally {
    await c.end();
  }
}

describe.skipIf(!citus)('a plan computed from a stale read (Citus, a distributed table)', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(citus!, 'stalec');
    await db.query(`CREATE TABLE amounts (id integer PRIMARY KEY, amount numeric(10,2));
      SELECT create_distributed_table('amounts', 'id', colocate_with => 'none', shard_count => 4);
      INSERT INTO amounts SELECT g, 1.23 FROM generate_series(1, 20) g;
      CREATE TABLE zz_local (id integer PRIMARY KEY)`);
  });

  it('refuses (exit 5) when the distributed column was changed after the read; the shards keep 1.2345', async () => {
    // An apply with nothing to do first makes the tool's history schema (see security-stale.test.ts).
    const asIs = join(
      projectDir(MANIFEST.replace('numeric(12,2)', 'numeric(10,2)').replace(', note: text', ''), 'cm-stale-citus-'),
      'citus-migrate.yaml',
    );
    expect((await apply(db.url, asIs)).outcome).toBe('nothing_to_do');
    const err = await apply(db.url, file(), {
      allowHazards,
      approve: async (p) => {
        expect(p.transaction.steps.map((s) => s.sql.join('; '))).toContain(
          'ALTER TABLE public.amounts ALTER COLUMN amount TYPE numeric(12,2)',
        );
        await elsewhere(
          db.url,
          'ALTER TABLE amounts ALTER COLUMN amount TYPE numeric(14,4)',
          'UPDATE amounts SET amount = 1.2345',
        );
        return true;
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CmError);
    expect([(err as CmError).code, (err as CmError).exitCode]).toEqual(['stale_plan', 5]);
    expect((err as CmError).meta).toEqual({ changes: ['changed table public.amounts'] });
    expect(
      await db.query('SELECT count(*)::int AS n, min(amount)::text AS lo, max(amount)::text AS hi FROM amounts'),
    ).toEqual([{ n: 20, lo: '1.2345', hi: '1.2345' }]);
    // Every shard still has the other session's type.
    expect(
      await db.query(`SELECT DISTINCT result FROM run_command_on_shards('amounts',
        $$SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = '%s'::regclass AND attname = 'amount'$$)`),
    ).toEqual([{ result: 'numeric(14,4)' }]);
  });

  it("holds the distributed table's lock on the coordinator from before the first step: DDL through the coordinator waits, writes do not", async () => {
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      // The guard locks public.amounts, then public.zz_local: holding zz_local, the apply waits there.
      await holder.query('BEGIN; LOCK TABLE zz_local IN ACCESS EXCLUSIVE MODE');
      const running = apply(db.url, file(), { allowHazards, lockTimeoutMs: 60_000 });
      const waiting = `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a USING (pid)
        WHERE a.application_name = 'citus-migrate' AND NOT l.granted AND l.relation = 'zz_local'::regclass`;
      expect(await pollCount(db, waiting, (n) => n === 1)).toBe(true);
      const probe = new pg.Client({ connectionString: db.url });
      await probe.connect();
      try {
        await probe.query("SET lock_timeout = '100ms'");
        expect((await probe.query('UPDATE amounts SET amount = 2 WHERE id = 1')).rowCount).toBe(1);
        await expect(probe.query('ALTER TABLE amounts ALTER COLUMN amount TYPE numeric(14,4)')).rejects.toMatchObject({
          code: '55P03',
        });
      } finally {
        await probe.end();
      }
      await holder.query('COMMIT');
      expect((await running).outcome).toBe('applied');
      expect(await db.query('SELECT amount::text AS amount FROM amounts WHERE id = 1')).toEqual([{ amount: '2.00' }]);
    } finally {
      await holder.end();
    }
  });
});

// Rows changed by the tool's own copy: create_distributed_table of a partitioned table copies each
// partition's rows into its shards, and that copy fires the shards' triggers, the partitions' own
// as well as the parent's. Every one of them is paused around the copy and put back in its exact
// state; alter_distributed_table and undistribute_table do not fire them (docs/citus-facts.md),
// and the rows stay as they were through those too.
const TRIGGERS = `CREATE FUNCTION add_v() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.v := NEW.v + TG_ARGV[0]::int; RETURN NEW; END $$;
CREATE TABLE events (id integer NOT NULL, k integer NOT NULL, v integer NOT NULL DEFAULT 0, PRIMARY KEY (id, k)) PARTITION BY RANGE (k);
CREATE TABLE events_a PARTITION OF events FOR VALUES FROM (0) TO (10);
CREATE TABLE events_b PARTITION OF events FOR VALUES FROM (10) TO (20);
CREATE TRIGGER parent_stamp BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION add_v('1');
CREATE TRIGGER a_stamp BEFORE INSERT ON events_a FOR EACH ROW EXECUTE FUNCTION add_v('10');
CREATE TRIGGER a_off BEFORE INSERT ON events_a FOR EACH ROW EXECUTE FUNCTION add_v('100');
ALTER TABLE events_a DISABLE TRIGGER a_off;
CREATE TRIGGER b_always BEFORE INSERT ON events_b FOR EACH ROW EXECUTE FUNCTION add_v('1000');
ALTER TABLE events_b ENABLE ALWAYS TRIGGER b_always;
CREATE TRIGGER b_replica BEFORE INSERT ON events_b FOR EACH ROW EXECUTE FUNCTION add_v('10000');
ALTER TABLE events_b ENABLE REPLICA TRIGGER b_replica;
INSERT INTO events (id, k) SELECT g, g % 20 FROM generate_series(1, 200) g`;

const eventsManifest = (layout: string): string => `version: 1
tables:
  events:
${layout}    partition_by: range (k)
    partitions:
      events_a: { from: 0, to: 10 }
      events_b: { from: 10, to: 20 }
    columns:
      id: { type: integer, not_null: true }
      k: { type: integer, not_null: true }
      v: { type: integer, not_null: true, default: "0" }
    primary_key: [id, k]
`;

describe.skipIf(!citus)("the tool's own copy of the rows (Citus, a partitioned table with triggers)", () => {
  let db: TestDb;
  const checksum = async (): Promise<unknown> =>
    (await db.query("SELECT md5(string_agg(e::text, ',' ORDER BY id, k)) AS sum, count(*)::int AS n FROM events e"))[0];
  // Every trigger's state, on the coordinator's tables and, through the workers, on every shard.
  const states = async (): Promise<{ coordinator: unknown; shards: unknown }> => ({
    coordinator: await db.query(`SELECT tgrelid::regclass::text AS rel, tgname, tgenabled::text AS state FROM pg_trigger
      WHERE NOT tgisinternal AND tgrelid IN (SELECT relid FROM pg_partition_tree('events')) ORDER BY 1, 2`),
    shards:
      await db.query(`SELECT DISTINCT result FROM run_command_on_workers($$SELECT string_agg(DISTINCT x, ' ' ORDER BY x) FROM (
        SELECT regexp_replace(tgrelid::regclass::text, '_[0-9]+$', '') || ':' || regexp_replace(tgname, '_[0-9]+$', '') || ':' || tgenabled::text AS x
        FROM pg_trigger WHERE NOT tgisinternal AND tgrelid::regclass::text ~ '^events(_[ab])?_[0-9]+$') s$$)`),
  });

  beforeEach(async () => {
    db = await freshDatabase(citus!, 'copytrg');
    await db.query(TRIGGERS);
  });

  it('distributes it with the rows intact and every trigger back in its state; then alters and undistributes it, rows intact', async () => {
    const before = await checksum();
    const cwd = projectDir(eventsManifest('    distributed_by: id\n    shard_count: 2\n'), 'cm-copytrg-');
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'copies_data'], { cwd });
    expect(r.stderr).not.toContain('error');
    expect(r.stdout).toMatch(/verified: planning again is empty/);
    expect(r.code).toBe(0);
    expect(
      await db.query("SELECT count(*)::int AS n FROM pg_dist_partition WHERE logicalrelid = 'events_b'::regclass"),
    ).toEqual([{ n: 1 }]);
    expect(await checksum()).toEqual(before);
    const trg = await states();
    expect(trg).toEqual({
      coordinator: [
        { rel: 'events', tgname: 'parent_stamp', state: 'O' },
        { rel: 'events_a', tgname: 'a_off', state: 'D' },
        { rel: 'events_a', tgname: 'a_stamp', state: 'O' },
        { rel: 'events_a', tgname: 'parent_stamp', state: 'O' },
        { rel: 'events_b', tgname: 'b_always', state: 'A' },
        { rel: 'events_b', tgname: 'b_replica', state: 'R' },
        { rel: 'events_b', tgname: 'parent_stamp', state: 'O' },
      ],
      shards: [
        {
          result:
            'events:parent_stamp:O events_a:a_off:D events_a:a_stamp:O events_a:parent_stamp:O events_b:b_always:A events_b:b_replica:R events_b:parent_stamp:O',
        },
      ],
    });
    // The triggers work on the shards after: a new row is stamped by the parent's and a_stamp.
    await db.query('INSERT INTO events (id, k) VALUES (1000, 1)');
    expect(await db.query('SELECT v FROM events WHERE id = 1000')).toEqual([{ v: 11 }]);
    await db.query('DELETE FROM events WHERE id = 1000');

    // alter_distributed_table (another shard count), then undistribute_table: no copy fires them.
    writeFileSync(join(cwd, 'citus-migrate.yaml'), eventsManifest('    distributed_by: id\n    shard_count: 4\n'));
    const altered = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'rewrites_table'], {
      cwd,
    });
    expect(altered.code, altered.stderr).toBe(0);
    expect(
      await db.query("SELECT count(*)::int AS n FROM pg_dist_shard WHERE logicalrelid = 'events_a'::regclass"),
    ).toEqual([{ n: 4 }]);
    expect(await checksum()).toEqual(before);
    expect(await states()).toEqual(trg);
    writeFileSync(join(cwd, 'citus-migrate.yaml'), eventsManifest('    local: true\n'));
    const local = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd });
    expect(local.code, local.stderr).toBe(0);
    expect(await db.query('SELECT count(*)::int AS n FROM pg_dist_partition')).toEqual([{ n: 0 }]);
    expect(await checksum()).toEqual(before);
    expect(((await states()) as { coordinator: unknown }).coordinator).toEqual(trg.coordinator);
  });

  it("refuses, rolled back, a partition's copy of the parent's trigger in another state than the parent's (Citus could not restore it)", async () => {
    await db.query('ALTER TABLE ONLY events_b DISABLE TRIGGER parent_stamp');
    const before = await checksum();
    const cwd = projectDir(eventsManifest('    distributed_by: id\n    shard_count: 2\n'), 'cm-copytrg-');
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'copies_data'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "trigger parent_stamp of public.events is DISABLE on public.events_b, its partition, but ENABLE on the table: Citus cannot change a partition's copy of a trigger once it is distributed, so that state could not be restored after the copy",
    );
    expect(r.stderr).toContain('nothing was applied: the transaction was rolled back');
    expect(await db.query('SELECT count(*)::int AS n FROM pg_dist_partition')).toEqual([{ n: 0 }]);
    expect(await checksum()).toEqual(before);
  });
});
