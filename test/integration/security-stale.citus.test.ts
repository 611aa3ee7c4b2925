// Plans computed from a stale read, on Citus: the column another session changes between the
// plan's catalog read and its transaction is on a distributed table (the ALTER goes through the
// coordinator to every shard). The transaction's lock on the coordinator's table keeps DDL through
// the coordinator out from before its first step; its second read refuses the stale plan (exit 5),
// and the rows on the shards keep their 4 decimals.
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { apply, CmError } from '../../src/index.js';
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
