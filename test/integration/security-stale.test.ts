// Plans computed from a stale read: another session changes what a plan changes between the
// plan's catalog read and its transaction (here, deterministically, from the library's `approve`
// callback, which runs after the plan and before the transaction). The transaction locks the
// tables its steps change, reads again what the plan was computed from, and refuses the stale
// plan (exit 5) instead of running a step planned against the old column: the data is intact.
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { apply, CmError } from '../../src/index.js';
import { freshDatabase, plainServers, pollCount, type TestDb } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { join } from 'node:path';

const MANIFEST = `version: 1
tables:
  prices:
    local: true
    columns: { id: { type: integer, not_null: true }, amount: "numeric(12,2)" }
    primary_key: [id]
  other:
    local: true
    columns: { id: { type: integer, not_null: true }, note: text }
    primary_key: [id]
`;

// Widening numeric(10,2) is planned as a rewrite; it loses nothing, so no drops_data.
const allowHazards = new Set(['rewrites_table'] as const);

const file = (manifest = MANIFEST): string => join(projectDir(manifest, 'cm-stale-'), 'citus-migrate.yaml');

/** Runs statements on a connection of its own (another session). */
async function elsewhere(url: string, statements: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(statements);
  } finally {
    await c.end();
  }
}

describe('a plan computed from a stale read (plain PostgreSQL)', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'stale');
    await db.query(`CREATE TABLE prices (id integer PRIMARY KEY, amount numeric(10,2));
      INSERT INTO prices VALUES (1, 1.23);
      CREATE TABLE other (id integer PRIMARY KEY)`);
  });

  it('refuses (exit 5, rolled back) when a column the plan changes was changed after the read; the data stays', async () => {
    const seen: string[] = [];
    const err = await apply(db.url, file(), {
      allowHazards,
      approve: async (p) => {
        seen.push(...p.transaction.steps.map((s) => s.sql.join('; ')));
        // After the plan (ALTER … TYPE numeric(12,2), no hazard: it widens numeric(10,2)), before the transaction.
        await elsewhere(
          db.url,
          'ALTER TABLE prices ALTER COLUMN amount TYPE numeric(14,4); UPDATE prices SET amount = 1.2345',
        );
        return true;
      },
    }).catch((e: unknown) => e);
    expect(seen).toContain('ALTER TABLE public.prices ALTER COLUMN amount TYPE numeric(12,2)');
    expect(err).toBeInstanceOf(CmError);
    const e = err as CmError;
    expect([e.code, e.exitCode]).toEqual(['stale_plan', 5]);
    expect(e.message).toBe(
      'stale plan: the cluster changed after the plan was computed, before its transaction; rolled back, nothing was run\n  changed table public.prices\n  plan again and review it',
    );
    expect(e.meta).toEqual({ changes: ['changed table public.prices'] });
    expect(
      await db.query(
        "SELECT amount::text AS amount, format_type(atttypid, atttypmod) AS type FROM prices, pg_attribute WHERE attrelid = 'prices'::regclass AND attname = 'amount'",
      ),
    ).toEqual([{ amount: '1.2345', type: 'numeric(14,4)' }]);
    // Nothing of the transaction stayed (the other table's new column neither); the history says why.
    expect(
      await db.query(
        "SELECT count(*)::int AS n FROM pg_attribute WHERE attrelid = 'other'::regclass AND attname = 'note'",
      ),
    ).toEqual([{ n: 0 }]);
    expect(
      await db.query("SELECT outcome, error->>'code' AS code, error->'changes' AS changes FROM citus_migrate.applies"),
    ).toEqual([{ outcome: 'failed', code: 'stale_plan', changes: ['changed table public.prices'] }]);
  });

  it('refuses (exit 5) when a table the plan changes was dropped after the read', async () => {
    const err = await apply(db.url, file(), {
      allowHazards,
      approve: async () => {
        await elsewhere(db.url, 'DROP TABLE other');
        return true;
      },
    }).catch((e: unknown) => e);
    expect([(err as CmError).code, (err as CmError).exitCode]).toEqual(['stale_plan', 5]);
    expect((err as CmError).meta).toEqual({ changes: ['gone: relation "public.other" does not exist'] });
    expect(await db.query('SELECT amount::text AS amount FROM prices')).toEqual([{ amount: '1.23' }]);
  });

  it('runs the plan when what changed meanwhile is not what the plan changes or needs', async () => {
    const r = await apply(db.url, file(), {
      allowHazards,
      approve: async () => {
        await elsewhere(db.url, 'CREATE TABLE unrelated (x int); UPDATE prices SET amount = 2');
        return true;
      },
    });
    expect(r.outcome).toBe('applied');
    expect(await db.query('SELECT amount::text AS amount FROM prices')).toEqual([{ amount: '2.00' }]);
  });

  it('holds SHARE UPDATE EXCLUSIVE on the tables it changes from before its first step: other DDL on them waits, reads and writes do not', async () => {
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      // The guard locks public.other and public.prices in that order: holding other, the apply
      // waits there, before any step, and must hold nothing of prices yet; then the reverse.
      await holder.query('BEGIN; LOCK TABLE prices IN ACCESS EXCLUSIVE MODE');
      const running = apply(db.url, file(), { allowHazards, lockTimeoutMs: 60_000 });
      const waiting = `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a USING (pid)
        WHERE a.application_name = 'citus-migrate' AND NOT l.granted AND l.relation = 'prices'::regclass`;
      expect(await pollCount(db, waiting, (n) => n === 1)).toBe(true);
      expect(
        await db.query(`SELECT l.mode FROM pg_locks l JOIN pg_stat_activity a USING (pid)
          WHERE a.application_name = 'citus-migrate' AND l.granted AND l.relation = 'other'::regclass`),
      ).toEqual([{ mode: 'ShareUpdateExclusiveLock' }]);
      // While it holds other: a read and a write go through, DDL does not.
      const probe = new pg.Client({ connectionString: db.url });
      await probe.connect();
      try {
        await probe.query("SET lock_timeout = '100ms'");
        expect((await probe.query('INSERT INTO other VALUES (7) RETURNING id')).rows).toEqual([{ id: 7 }]);
        await expect(probe.query('ALTER TABLE other ADD COLUMN sneaky int')).rejects.toMatchObject({ code: '55P03' });
      } finally {
        await probe.end();
      }
      await holder.query('COMMIT');
      expect((await running).outcome).toBe('applied');
    } finally {
      await holder.end();
    }
  });
});
