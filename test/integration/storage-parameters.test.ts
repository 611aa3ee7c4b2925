// Storage parameters (fillfactor, autovacuum_*, toast.*) managed end to end on PostgreSQL:
// introspected from the catalog (the TOAST table's as toast.*), planned as SET / RESET, applied,
// planned again empty; a new table gets them after its CREATE; toast.* on a table without a TOAST
// table is a problem (PostgreSQL would keep none of it), not a plan that never converges.
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const server = plainServers();
const options = `SELECT c.relname, c.reloptions::text AS own, t.reloptions::text AS toast FROM pg_class c
  LEFT JOIN pg_class t ON t.oid = c.reltoastrelid WHERE c.relname IN ('orders', 'events') ORDER BY 1`;

describe('storage parameters', () => {
  it('introspected, changed (SET and RESET), created with a new table, and planned again empty', async () => {
    const db = await freshDatabase(server, 'storage_params');
    await db.query(`CREATE TABLE orders (id bigint PRIMARY KEY, note text) WITH (fillfactor = 80, autovacuum_enabled = off);
      ALTER TABLE orders SET (toast.autovacuum_enabled = off, autovacuum_vacuum_scale_factor = .05)`);
    const dir = projectDir({});
    expect((await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: dir })).code).toBe(0);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
    const changed = projectDir(`version: 1
tables:
  orders:
    columns: { id: bigint, note: text }
    primary_key: [id]
    storage_parameters: { fillfactor: 70, toast.autovacuum_enabled: false, autovacuum_vacuum_scale_factor: 0.05 }
  events:
    columns: { id: bigint, payload: text }
    storage_parameters: { fillfactor: 90, autovacuum_vacuum_insert_threshold: 5000, toast.autovacuum_enabled: false }
`);
    const planned = await cli(['plan', '--database', db.url, '--format', 'sql'], { cwd: changed });
    expect(planned.stdout.split('\n').filter((l) => / (SET|RESET) \(/.test(l))).toEqual([
      'ALTER TABLE public.orders RESET (autovacuum_enabled);',
      'ALTER TABLE public.orders SET (fillfactor = 70);',
      'ALTER TABLE public.events SET (autovacuum_vacuum_insert_threshold = 5000, fillfactor = 90, toast.autovacuum_enabled = false);',
    ]);
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: changed });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    expect(await db.query(options)).toEqual([
      {
        relname: 'events',
        own: '{autovacuum_vacuum_insert_threshold=5000,fillfactor=90}',
        toast: '{autovacuum_enabled=false}',
      },
      {
        relname: 'orders',
        own: '{autovacuum_vacuum_scale_factor=.05,fillfactor=70}',
        toast: '{autovacuum_enabled=off}',
      },
    ]);
  });

  it('toast.* on a table without a TOAST table is a problem; a partitioned table takes none', async () => {
    const db = await freshDatabase(server, 'storage_notoast');
    await db.query('CREATE TABLE counters (id bigint PRIMARY KEY, n integer)');
    const dir = projectDir(`version: 1
tables:
  counters: { columns: { id: bigint, n: integer }, primary_key: [id], storage_parameters: { toast.autovacuum_enabled: false } }
`);
    const planned = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain(
      'public.counters: has no TOAST table (none of its columns is stored out of line), so PostgreSQL keeps none of toast.autovacuum_enabled',
    );
    const parted = projectDir(`version: 1
tables:
  p: { columns: { id: bigint }, partition_by: range (id), storage_parameters: { fillfactor: 70 } }
`);
    const v = await cli(['validate'], { cwd: parted });
    expect(v.code).not.toBe(0);
    expect(v.stderr).toContain(
      'tables.p.storage_parameters: a partitioned table holds no rows and takes no storage parameters',
    );
  });
});
