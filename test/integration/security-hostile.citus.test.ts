// On Citus, with the obstacle on every node: a lower role that owns the database plants, on the
// coordinator and on each worker, a look-alike of every function, type and catalog the tool's
// statements name (create_distributed_table with text arguments among them, the classic way to
// become a superuser through a Citus call), and sets the database's Citus settings against it
// (DDL propagation and metadata sync off, schema-based sharding on, columnar by default…). A
// superuser then runs what a CI job runs: the trap runs on no node, the apply converges, and the
// shards on the workers match the plan.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { historyMigrations } from '../../src/own/history.js';
import { citusServers, freshDatabase, sql, type TestDb } from '../support/db.js';
import { hostileRole } from '../support/hostile.js';
import { HOSTILE_CITUS_SETTINGS, HOSTILE_SETTINGS, plantEverything } from '../support/plant.js';
import { cli } from '../support/run-cli.js';
import { runCommands, type Expected } from '../support/run-commands.js';
import { recordQueries, unqualifiedNames } from '../support/sql-audit.js';

const citus = citusServers();

/** The saas template (tenant tables colocated, a reference table, sequences with caches, delegated routines, a bench). */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cm-hostile-citus-'));
  cpSync(join(import.meta.dirname, '../../templates/saas'), dir, { recursive: true });
  return dir;
}

const commands = (url: string, planted: boolean): Expected[] => [
  { args: ['plan', '--detailed-exitcode'], code: 2 },
  // The plan run on a copy first: a scratch database on every node, made and dropped by the tool.
  { args: ['plan', '--prove', '--detailed-exitcode'], code: 2 },
  { args: ['apply', '--auto-approve', '--rehearse'], code: 0 },
  { args: ['apply', '--auto-approve', '--lock-timeout', '5s'], code: 0 },
  { args: ['plan', '--detailed-exitcode'], code: 0 },
  // Every worker has the shards, the sequences' caches and the routines the plan made.
  { args: ['plan', '--shards', '--detailed-exitcode'], code: 0 },
  { args: ['plan', '--detailed-exitcode', '--include-unmanaged'], code: planted ? 2 : 0 },
  { args: ['history'], code: 0, noManifest: true },
  { args: ['analyze', '--database', url], code: 0 },
  { args: ['bench', '--transactions', '40', '--clients', '2', '--warmup', '0s', '--require-delegation'], code: 0 },
  { args: ['introspect', '--out', join(mkdtempSync(join(tmpdir(), 'cm-intro-')), 'm')], code: 0, noManifest: true },
];

describe.skipIf(!citus)(
  'a lower role that owns the database cannot make the tool run its code (Citus, every node)',
  () => {
    let statements: string[] = [];
    let stepSql = new Set<string>();

    beforeAll(async () => {
      const clean = await freshDatabase(citus!, 'clean');
      const dir = project();
      const plan = await cli(['plan', '--format', 'json', '-f', dir], { env: { DATABASE_URL: clean.url } });
      const doc = JSON.parse(plan.stdout) as {
        transaction: { steps: { sql: string[] }[] };
        afterCommit: { sql: string[] }[];
      };
      stepSql = new Set([...doc.transaction.steps, ...doc.afterCommit].flatMap((s) => s.sql));
      const rec = recordQueries();
      try {
        expect(await runCommands(clean.url, dir, commands(clean.url, false))).toEqual([]);
      } finally {
        rec.stop();
      }
      statements = rec.texts;
    });

    it("the tool's own statements (those it sends to the workers too) name every function, type and relation with its schema", async () => {
      const migrations = new Set(historyMigrations().map((m) => m.sql));
      const own = [...new Set(statements)].filter((s) => !stepSql.has(s) && !migrations.has(s));
      const found: string[] = [];
      for (const s of own)
        for (const n of await unqualifiedNames(s)) found.push(`${n}  in: ${s.slice(0, 160).replace(/\s+/g, ' ')}`);
      expect(found).toEqual([]);
    });

    describe('with look-alikes planted on every node and the settings against it', () => {
      let db: TestDb;
      let result: { before: string[]; failures: string[]; breaches: string[] };

      beforeAll(async () => {
        db = await freshDatabase(citus!, 'hostile');
        // A superuser installed citus_columnar, as a DBA would; the owner then makes it the default.
        await sql(citus!, db.name, 'CREATE EXTENSION IF NOT EXISTS citus_columnar');
        const h = await hostileRole(citus!, db, { owner: true });
        expect(
          await plantEverything(citus!, db, h, statements, [...HOSTILE_SETTINGS, ...HOSTILE_CITUS_SETTINGS]),
        ).toBeGreaterThan(100);
        const before = await h.breaches();
        const failures = await runCommands(db.url, project(), commands(db.url, true), () => h.breaches());
        result = { before, failures, breaches: await h.breaches() };
      }, 900_000);

      it('every command does what it does on a clean cluster, and the trap never ran on any node', async () => {
        expect(result.before).toEqual([]);
        expect(result.failures).toEqual([]);
        expect(result.breaches).toEqual([]);
        // The tool's history tables are heap tables, whatever the database's default access method.
        const am = await db.query<{ am: string }>(
          `SELECT a.amname AS am FROM pg_catalog.pg_class c JOIN pg_catalog.pg_am a ON a.oid = c.relam
          WHERE c.oid = 'citus_migrate.applies'::pg_catalog.regclass`,
        );
        expect(am).toEqual([{ am: 'heap' }]);
      });
    });
  },
);
