// What introspect writes reads back: hostile names in the default schema (a table `a"b`, a column
// `x: y`) come out as a manifest that validates and plans empty against the same database.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { planLive } from '../../src/plan/from-manifest.js';
import { readLiveState } from '../../src/introspect/read.js';
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
});
