// On Citus, introspect also writes the distributed routines (by signature): a function named
// "select" in a table named a"b's colocation group comes out quoted, validates, and plans empty.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { planLive } from '../../src/plan/from-manifest.js';
import { readCatalogChecked as readCatalog } from '../support/catalog-oracle.js';
import { readLiveState } from '../../src/own/live-state.js';
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
    ])
      await db.query(statement);
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

  it('reads no shard as a table when the coordinator holds shards, keeps a table whose name ends in digits, and puts the session settings back', async () => {
    const db = await freshDatabase(citus!, 'shards');
    const long = `t${'x'.repeat(60)}`; // a shard name past 63 characters is shortened by Citus, and still ends in _<shardid>
    for (const statement of [
      'CREATE TABLE ref (id int PRIMARY KEY)',
      "SELECT create_reference_table('ref')",
      'CREATE TABLE loc (id int PRIMARY KEY)',
      "SELECT citus_add_local_table_to_metadata('loc')",
      "SELECT citus_set_node_property(nodename, nodeport, 'shouldhaveshards', true) FROM pg_dist_node WHERE groupid = 0",
      `CREATE TABLE ${long} (id int PRIMARY KEY)`,
      `SELECT create_distributed_table('${long}', 'id', shard_count => 4)`,
      'CREATE TABLE x_102010 (id int PRIMARY KEY)',
    ])
      await db.query(statement);
    const c = new pg.Client({ connectionString: db.url, options: '-c search_path=pg_catalog,public -c jit=on' });
    await c.connect();
    try {
      const shardsHere = await c.query(
        `SELECT count(*)::int AS n FROM pg_dist_shard s JOIN pg_dist_placement p USING (shardid) WHERE p.groupid = 0`,
      );
      expect(shardsHere.rows[0].n).toBeGreaterThanOrEqual(3); // the reference, the citus-local and some distributed shards are here
      const { doc } = await readCatalog(c);
      expect(doc.tables.map((t) => t.name).sort()).toEqual([long, 'loc', 'ref', 'x_102010'].sort());
      const settings = await c.query(
        `SELECT current_setting('citus.override_table_visibility') AS v, current_setting('search_path') AS p, current_setting('jit') AS jit`,
      );
      expect(settings.rows[0]).toEqual({ v: 'on', p: 'pg_catalog,public', jit: 'on' });
    } finally {
      await c.end();
    }
  });
});
