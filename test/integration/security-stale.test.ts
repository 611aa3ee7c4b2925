// Plans computed from a stale read: another session changes what a plan changes between the
// plan's catalog read and its transaction (here, deterministically, from the library's `approve`
// callback, which runs after the plan and before the transaction). The transaction locks the
// tables its steps change, reads again what the plan was computed from, and refuses the stale
// plan (exit 5) instead of running a step planned against the old column: the data is intact.
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { apply, CmError } from '../../src/index.js';
import { changedSince, markCatalog } from '../../src/apply/catalog-mark.js';
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
    // An apply with nothing to do first makes the tool's history schema: the catalog then changes
    // between this plan's read and its transaction only by the other session's ALTER.
    const asIs = MANIFEST.replace('numeric(12,2)', 'numeric(10,2)').replace(', note: text', '');
    expect((await apply(db.url, file(asIs))).outcome).toBe('nothing_to_do');
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
      await db.query(
        "SELECT outcome, error->>'code' AS code, error->'changes' AS changes FROM citus_migrate.applies ORDER BY id",
      ),
    ).toEqual([
      { outcome: 'nothing_to_do', code: null, changes: null },
      { outcome: 'failed', code: 'stale_plan', changes: ['changed table public.prices'] },
    ]);
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

  it('refuses (exit 5) when an identity sequence the plan restarts as never used was used meanwhile (no catalog change)', async () => {
    await db.query('CREATE TABLE ids (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, x int)');
    const manifest = (identity: string): string => `${MANIFEST}  ids:
    local: true
    columns: { id: { type: bigint, not_null: true, identity: ${identity} }, x: integer }
    primary_key: [id]
`;
    // A first apply makes the tool's history schema: the second one's catalog mark is then unchanged.
    expect((await apply(db.url, file(manifest('by default')), { allowHazards })).outcome).toBe('applied');
    const err = await apply(db.url, file(manifest('{ generated: by default, start: 100 }')), {
      allowHazards,
      approve: async (p) => {
        expect(p.transaction.steps.map((s) => s.sql.join('; ')).join('\n')).toContain('RESTART');
        await elsewhere(db.url, 'INSERT INTO ids (x) VALUES (1)');
        return true;
      },
    }).catch((e: unknown) => e);
    expect([(err as CmError).code, (err as CmError).meta]).toEqual([
      'stale_plan',
      { changes: ['changed sequence public.ids_id_seq'] },
    ]);
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

// The mark that spares the transaction a second catalog read when nothing changed
// (apply/catalog-mark.ts): it must see every committed change, and nothing else.
describe('catalog marks', () => {
  let db: TestDb;
  let c: pg.Client;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'mark');
    await db.query('CREATE TABLE t (id integer PRIMARY KEY, v numeric(10,2)); INSERT INTO t VALUES (1, 1)');
    c = new pg.Client({ connectionString: db.url });
    await c.connect();
    return () => c.end();
  });

  it('is unchanged by writes, ANALYZE and VACUUM of the rows', async () => {
    const mark = await markCatalog(c);
    await elsewhere(db.url, 'INSERT INTO t SELECT g, g FROM generate_series(2, 500) g; UPDATE t SET v = 2; ANALYZE t');
    await elsewhere(db.url, 'VACUUM t');
    expect(await changedSince(c, mark)).toBe(false);
  });

  it('sees a change committed after it, a drop, and a change undone', async () => {
    await db.query('CREATE TABLE u (x int)');
    for (const change of [
      'ALTER TABLE t ALTER COLUMN v TYPE numeric(14,4)',
      'DROP TABLE u',
      'ALTER TABLE t DROP CONSTRAINT t_pkey',
    ]) {
      const mark = await markCatalog(c);
      await elsewhere(db.url, change);
      expect(await changedSince(c, mark), change).toBe(true);
    }
    const mark = await markCatalog(c);
    await elsewhere(db.url, 'ALTER TABLE t ALTER COLUMN v TYPE numeric(10,2)');
    await elsewhere(db.url, 'ALTER TABLE t ALTER COLUMN v TYPE numeric(14,4)');
    expect(await changedSince(c, mark)).toBe(true);
  });

  it('sees a change made in a subtransaction begun before it and committed after it', async () => {
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('BEGIN; SAVEPOINT s; ALTER TABLE t ALTER COLUMN v TYPE numeric(14,4)');
      const mark = await markCatalog(c);
      await other.query('RELEASE SAVEPOINT s; COMMIT');
      expect(await changedSince(c, mark)).toBe(true);
    } finally {
      await other.end();
    }
  });
});
