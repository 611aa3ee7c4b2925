// A lower role that owns the database plants a look-alike of every function, type, catalog and
// operator the tool's statements name, and sets the database's search_path and other settings
// against it; then a superuser runs every command. Its trap never runs, every command does what
// it did on a clean database, and the statements the tool itself writes name every function,
// type and relation with its schema.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { hostileRole } from '../support/hostile.js';
import { plantEverything } from '../support/plant.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';
import { runCommands, type Expected } from '../support/run-commands.js';
import { recordQueries, unqualifiedNames } from '../support/sql-audit.js';
import { historyMigrations } from '../../src/own/history.js';

// Something of every part the tool writes SQL for: tables with defaults (a timestamptz literal,
// read in the pinned time zone), keys, an index, a sequence, a routine, and sql: file objects
// (an enum, a view, a comment, a grant).
const MANIFEST = `version: 1
defaults: { schema: app }
tables:
  accounts:
    local: true
    columns:
      id: { type: bigint, not_null: true }
      name: { type: text, not_null: true, default: "'x'" }
      opened: { type: timestamptz, not_null: true, default: "'2024-01-01 00:00'" }
      balance: { type: "numeric(12,2)", not_null: true, default: "0" }
      kind: { type: app.kind }
    primary_key: [id]
    indexes:
      - { columns: [name] }
sequences:
  tickets: { cache: 10 }
routines:
  touch:
    file: touch.sql
sql: [objects.sql]
`;
const FILES = {
  'citus-migrate.yaml': MANIFEST,
  'touch.sql':
    'CREATE FUNCTION app.touch(p_id bigint) RETURNS void LANGUAGE plpgsql AS $$ BEGIN UPDATE app.accounts SET name = name WHERE id = p_id; END $$;\n',
  'objects.sql': [
    "CREATE TYPE app.kind AS ENUM ('a', 'b');",
    'CREATE VIEW app.rich AS SELECT id, balance FROM app.accounts WHERE balance > 100;',
    "COMMENT ON VIEW app.rich IS 'the rich';",
    'GRANT SELECT ON app.rich TO PUBLIC;',
  ].join('\n'),
};

/**
 * The commands a CI job runs, in order, with the exit code each must give on a database that
 * differs at first (a drift check that includes unmanaged objects finds the planted ones: 2).
 */
const commands = (url: string, planted: boolean): Expected[] => [
  { args: ['plan', '--detailed-exitcode'], code: 2 },
  // The plan run on a copy first (a scratch database the tool creates and drops).
  { args: ['plan', '--prove', '--detailed-exitcode'], code: 2 },
  { args: ['apply', '--auto-approve', '--rehearse', '--allow-hazards', 'public_privileges'], code: 0 },
  { args: ['apply', '--auto-approve', '--allow-hazards', 'public_privileges', '--lock-timeout', '5s'], code: 0 },
  // Converged: every column has the built-in type, the timestamptz default the time it says.
  { args: ['plan', '--detailed-exitcode'], code: 0 },
  { args: ['plan', '--detailed-exitcode', '--include-unmanaged'], code: planted ? 2 : 0 },
  { args: ['history'], code: 0, noManifest: true },
  { args: ['analyze', '--database', url], code: 0 },
  { args: ['introspect', '--out', join(mkdtempSync(join(tmpdir(), 'cm-intro-')), 'm')], code: 0, noManifest: true },
];

describe('a lower role that owns the database cannot make the tool run its code (plain PostgreSQL)', () => {
  const info = plainServers();
  let statements: string[] = [];
  let stepSql = new Set<string>();

  beforeAll(async () => {
    // What the tool sends on a clean database: every command, recorded.
    const clean = await freshDatabase(info, 'clean');
    const dir = projectDir(FILES, 'cm-hostile-');
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

  it("the tool's own statements name every function, type and relation with its schema", async () => {
    // The plan's steps are the user's SQL (their names resolve with the plan's pinned search_path);
    // the tool's migrations of its own schema (checksummed, never edited) run with search_path
    // pinned to pg_catalog, pg_temp (own-schema.ts).
    const migrations = new Set(historyMigrations().map((m) => m.sql));
    const own = [...new Set(statements)].filter((s) => !stepSql.has(s) && !migrations.has(s));
    expect(own.length).toBeGreaterThan(10);
    const found: string[] = [];
    for (const s of own)
      for (const n of await unqualifiedNames(s)) found.push(`${n}  in: ${s.slice(0, 160).replace(/\s+/g, ' ')}`);
    expect(found).toEqual([]);
  });

  describe('with look-alikes planted', () => {
    let db: TestDb;
    let breachesBefore: string[];
    const dir = projectDir(FILES, 'cm-hostile-');

    beforeAll(async () => {
      db = await freshDatabase(info, 'hostile');
      const h = await hostileRole(info, db, { owner: true });
      // (Look-alike operators are security-catalog-binding.test.ts's: tens of thousands of them
      // make every catalog read slow, which is not what this test is about.)
      expect(await plantEverything(info, db, h, statements)).toBeGreaterThan(100);
      breachesBefore = await h.breaches();
      const failures = await runCommands(db.url, dir, commands(db.url, true), () => h.breaches());
      (globalThis as { cmHostile?: { failures: string[]; breaches: string[] } }).cmHostile = {
        failures,
        breaches: await h.breaches(),
      };
    });
    afterAll(() => {
      delete (globalThis as { cmHostile?: unknown }).cmHostile;
    });

    it('every command does what it does on a clean database, and the trap never ran', () => {
      const r = (globalThis as { cmHostile?: { failures: string[]; breaches: string[] } }).cmHostile!;
      expect(breachesBefore).toEqual([]);
      expect(r.failures).toEqual([]);
      expect(r.breaches).toEqual([]);
    });
  });
});
