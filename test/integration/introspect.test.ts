// What introspect writes reads back: hostile names in the default schema (a table `a"b`, a column
// `x: y`) come out as a manifest that validates and plans empty against the same database.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { planLive } from '../../src/plan/from-manifest.js';
import { readLiveState } from '../../src/own/live-state.js';
import { PINS } from '../../src/introspect/catalog-query.js';
import { CATALOG_SQL_PLAIN } from '../../src/introspect/catalog-sql.js';
import { loadManifestText } from '../../src/manifest/load.js';
import { freshDatabase, plainServers } from '../support/db.js';
import { cli } from '../support/run-cli.js';

describe('introspect on plain PostgreSQL', () => {
  it('writes a manifest its own loader accepts and that plans empty', async () => {
    const db = await freshDatabase(plainServers(), 'intro');
    await db.query(`CREATE TABLE "a""b" (id bigint PRIMARY KEY, "x: y" text NOT NULL DEFAULT 'it''s', "a.b" int)`);
    await db.query('CREATE TABLE "sel.ect" (id bigint PRIMARY KEY, ab bigint REFERENCES "a""b" (id))');
    await db.query('CREATE FUNCTION "select"(a integer) RETURNS integer LANGUAGE sql AS $$ SELECT a $$');
    const r = await cli(['introspect', '--database', db.url]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const m = await loadManifestText(r.stdout, 'introspected.yaml', mkdtempSync(join(tmpdir(), 'cm-intro-')));
    expect(Object.keys(m.desired.tables).sort()).toEqual(['public."a""b"', 'public."sel.ect"']);
    expect(m.desired.tables['public."a""b"']!.columns!.map((c) => c.name)).toEqual(['id', 'x: y', 'a.b']);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const live = await readLiveState(c).finally(() => c.end());
    expect(planLive(m, live).transaction.steps.map((s) => s.summary)).toEqual([]);
  });
  it('a foreign key to a partitioned table is adopted; one to a partition is named as not managed (was: a crash)', async () => {
    const db = await freshDatabase(plainServers(), 'intro_fkpart');
    await db.query(`CREATE TABLE ev (id int, ts date, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
      CREATE TABLE ev_2024 PARTITION OF ev FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
      CREATE TABLE ev_2025 PARTITION OF ev FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
      CREATE TABLE ref (id int, ts date, FOREIGN KEY (id, ts) REFERENCES ev);
      CREATE TABLE ref2 (id int, ts date, CONSTRAINT to_part FOREIGN KEY (id, ts) REFERENCES ev_2024)`);
    const out = mkdtempSync(join(tmpdir(), 'cm-intro-fkpart-'));
    const r = await cli(['introspect', '--database', db.url, '--out', join(out, 'citus-migrate.yaml')]);
    expect(r.stderr).not.toContain('Cannot read properties');
    expect(r.code).toBe(0);
    // Never silent: what the manifest cannot carry is said, and listed in the manifest.
    expect(r.stderr).toContain(
      'introspect: left out 1 object of kinds citus-migrate does not manage (listed at the top of the manifest; plans name them as not managed):\n  foreign key to a partition (1): public.ref2.to_part\n',
    );
    expect(readFileSync(join(out, 'citus-migrate.yaml'), 'utf8')).toContain(
      '#   foreign key to a partition (1): public.ref2.to_part\n',
    );
    const strict = await cli(['introspect', '--database', db.url, '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('introspect --strict: 1 object left out; exit 1');
    const plan = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], { cwd: out });
    expect(plan.stdout).toContain('No changes to what the manifest declares');
    expect(plan.stdout).toContain('foreign key to a partition (1): public.ref2.to_part');
    expect(plan.code).toBe(2);
    // Rebuilt elsewhere: the key to the partitioned table is there, with PostgreSQL's copies per partition.
    const db2 = await freshDatabase(plainServers(), 'intro_fkpart2');
    expect((await cli(['apply', '--database', db2.url, '--auto-approve'], { cwd: out })).code).toBe(0);
    const keys = "SELECT count(*)::int AS n FROM pg_constraint WHERE conrelid = 'ref'::regclass AND contype = 'f'";
    expect(await db2.query(keys)).toEqual(await db.query(keys));
  });
  it('overloaded routines are declared by signature, and an apply elsewhere creates both (was: under ignore:, left out; kea lost 7)', async () => {
    const db = await freshDatabase(plainServers(), 'intro_overloads');
    await db.query(`CREATE FUNCTION f(a int) RETURNS int LANGUAGE sql AS $$ SELECT a $$;
      CREATE FUNCTION f(a text) RETURNS int LANGUAGE sql AS $$ SELECT 1 $$`);
    const out = mkdtempSync(join(tmpdir(), 'cm-intro-overloads-'));
    const r = await cli(['introspect', '--database', db.url, '--out', join(out, 'citus-migrate.yaml')]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('left out');
    const manifest = readFileSync(join(out, 'citus-migrate.yaml'), 'utf8');
    expect(manifest).toContain('  f(integer):\n    file: routines/public.f.sql\n    local: true\n');
    expect(manifest).toContain('  f(text):\n    file: routines/public.f_2.sql\n    local: true\n');
    expect(manifest).not.toContain('ignore:');
    expect((await cli(['introspect', '--database', db.url, '--strict'])).code).toBe(0);
    const db2 = await freshDatabase(plainServers(), 'intro_overloads2');
    expect((await cli(['apply', '--database', db2.url, '--auto-approve'], { cwd: out })).code).toBe(0);
    const sigs = "SELECT array_agg(oid::regprocedure::text ORDER BY 1) AS s FROM pg_proc WHERE proname = 'f'";
    expect(await db2.query(sigs)).toEqual([{ s: ['f(integer)', 'f(text)'] }]);
    expect((await cli(['plan', '--database', db2.url, '--detailed-exitcode'], { cwd: out })).code).toBe(0);
  });

  it("the catalog query runs with JIT off (compiling it cost ~20 s at 10,000 tables: bench/plan-scale.mjs), and the session's jit is put back", async () => {
    const db = await freshDatabase(plainServers(), 'intro_jit');
    const c = new pg.Client({ connectionString: db.url, options: '-c jit=on -c jit_above_cost=0' });
    await c.connect();
    try {
      // The fact: where the server has LLVM, PostgreSQL compiles this query once its cost passes jit_above_cost.
      const provider = await c.query(
        "SELECT pg_catalog.pg_jit_available() AS available, current_setting('jit_provider') AS p",
      );
      if (provider.rows[0].available) {
        const explained = await c.query(`EXPLAIN (ANALYZE) ${CATALOG_SQL_PLAIN}`);
        expect(explained.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('JIT:');
      }
      expect(PINS).toContainEqual(['jit', 'off']);
      await readLiveState(c);
      expect((await c.query("SELECT current_setting('jit') AS jit")).rows[0]).toEqual({ jit: 'on' });
    } finally {
      await c.end();
    }
  });
  it("a type's users: the tables whose columns have it, directly, as an array or through a partition, and a typed table; not a dropped column or a view", async () => {
    const db = await freshDatabase(plainServers(), 'intro_typeusers');
    await db.query(`CREATE SCHEMA s;
      CREATE TYPE s.mood AS ENUM ('a', 'b');
      CREATE DOMAIN s.pos AS int CHECK (VALUE > 0);
      CREATE TYPE s.pair AS (a int, b text);
      CREATE DOMAIN s.moodd AS s.mood;
      CREATE TABLE s.t (id int, m s.mood, ms s.mood[], p s.pos, pa s.pair, pas s.pair[], md s.moodd, x int);
      CREATE TABLE public.u (m s.mood, dropped s.pos);
      ALTER TABLE public.u DROP COLUMN dropped;
      CREATE TABLE s.part (k int, m s.mood) PARTITION BY RANGE (k);
      CREATE TABLE s.part_1 PARTITION OF s.part FOR VALUES FROM (0) TO (10);
      CREATE TABLE s.typed OF s.pair;
      CREATE VIEW s.v AS SELECT m FROM s.t`);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const live = await readLiveState(c).finally(() => c.end());
    const users = Object.fromEntries(Object.entries(live.model.typeUsers ?? {}).map(([k, v]) => [k, [...v].sort()]));
    expect(users).toEqual({
      'type s.mood': ['relation public.u', 'relation s.part', 'relation s.t'],
      'type s.moodd': ['relation s.t'],
      'type s.pair': ['relation s.t', 'relation s.typed'],
      'type s.pos': ['relation s.t'],
    });
  });
});
