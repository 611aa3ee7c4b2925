// Names of primary keys and unique constraints survive introspect → apply (issue #23: they came
// back as PostgreSQL's defaults, and the plan did not notice), and a renamed key is renamed.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { readLiveState } from '../../src/own/live-state.js';
import { loadManifest } from '../../src/manifest/load.js';
import { planLive } from '../../src/plan/from-manifest.js';
import { freshDatabase, plainServers } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const KEYS = `SELECT conrelid::regclass::text AS t, contype, conname,
    (SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute WHERE attrelid = conrelid AND attnum = ANY (conkey)) AS cols
  FROM pg_constraint WHERE contype IN ('p', 'u') AND connamespace = 'public'::regnamespace ORDER BY 1, 2, 3`;

async function planSteps(url: string, file: string): Promise<string[]> {
  const m = await loadManifest(file);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const live = await readLiveState(c).finally(() => c.end());
  return planLive(m, live).transaction.steps.flatMap((s) => s.sql);
}

describe('key names on plain PostgreSQL', () => {
  it('introspected names are applied as they were, the re-plan is empty, and a renamed key is renamed', async () => {
    const db = await freshDatabase(plainServers(), 'keynames');
    await db.query(`CREATE TABLE data (id bigint, a int, b int, c int,
        CONSTRAINT data_pk PRIMARY KEY (id), CONSTRAINT data_ab UNIQUE (a, b), UNIQUE (c));
      CREATE TABLE plain (id bigint PRIMARY KEY, x int UNIQUE)`);
    const dir = mkdtempSync(join(tmpdir(), 'cm-keynames-'));
    const file = join(dir, 'citus-migrate.yaml');
    const r = await cli(['introspect', '--database', db.url, '--out', file]);
    expect(r.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('name: data_pk');
    expect(text).toContain('name: data_ab');
    expect(text).not.toMatch(/data_c_key|plain_pkey|plain_x_key/); // default names are left out

    const db2 = await freshDatabase(plainServers(), 'keynames2');
    const applied = await cli(['apply', '--database', db2.url, '--auto-approve'], { cwd: dir });
    expect(applied.stderr).not.toContain('error');
    expect(applied.code).toBe(0);
    expect(await db2.query(KEYS)).toEqual(await db.query(KEYS));
    expect(await planSteps(db2.url, file)).toEqual([]);

    writeFileSync(file, text.replace('name: data_pk', 'name: data_id_pk').replace('name: data_ab', 'name: data_a_b'));
    expect(await planSteps(db2.url, file)).toEqual([
      'ALTER INDEX public.data_pk RENAME TO data_id_pk',
      'ALTER INDEX public.data_ab RENAME TO data_a_b',
    ]);
    expect((await cli(['apply', '--database', db2.url, '--auto-approve'], { cwd: dir })).code).toBe(0);
    expect((await db2.query(KEYS)).filter((k) => k.t === 'data')).toEqual([
      { t: 'data', contype: 'p', conname: 'data_id_pk', cols: 'id' },
      { t: 'data', contype: 'u', conname: 'data_a_b', cols: 'a,b' },
      { t: 'data', contype: 'u', conname: 'data_c_key', cols: 'c' },
    ]);
    expect(await planSteps(db2.url, file)).toEqual([]);
  });
});
