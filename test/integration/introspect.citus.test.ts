// On Citus, introspect also writes the distributed routines (by signature): a function named
// "select" in a table named a"b's colocation group comes out quoted, validates, and plans empty.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { planLive } from '../../src/commands/plan.js';
import { readLiveState } from '../../src/introspect/read.js';
import { loadManifestText } from '../../src/manifest/load.js';
import { citusServers, freshDatabase } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

describe.skipIf(!citus)('introspect on Citus', () => {
  it('writes a distributed routine named select so that the manifest loads and plans empty', async () => {
    const db = await freshDatabase(citus!, 'intro');
    // One statement per call: Citus refuses a function command after a parallel DDL in one transaction.
    for (const statement of [
      'CREATE TABLE "a""b" (w_id integer PRIMARY KEY, "x: y" text)',
      `SELECT create_distributed_table('"a""b"', 'w_id', shard_count => 4)`,
      'CREATE FUNCTION "select"(w integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN w; END $$',
      `SELECT create_distributed_function('"select"(integer)', '$1', colocate_with => '"a""b"')`,
    ]) await db.query(statement);
    const r = await cli(['introspect', '--database', db.url]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('signature: \'"select"(integer)\'');
    const m = await loadManifestText(r.stdout, 'introspected.yaml', mkdtempSync(join(tmpdir(), 'cm-intro-')));
    expect(Object.keys(m.desired.routines)).toEqual(['public."select"(integer)']);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const live = await readLiveState(c).finally(() => c.end());
    expect(planLive(m, live).transaction.steps.map((s) => s.summary)).toEqual([]);
  });
});
