// Objects defined by SQL on a real coordinator + 2 workers: the facts their steps rely on, and a
// project with a distributed table, a reference table, an enum, a domain, an extension, a view,
// a CHECK, an expression index, a trigger, RLS, a policy and comments applied in one
// transaction, reaching the workers, and planning empty afterwards (also after introspect).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

async function run(url: string, statements: readonly string[]): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const s of statements) await client.query(s);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  } finally {
    await client.end();
  }
}

const MANIFEST = `version: 1
colocation:
  tenants: { shard_count: 4 }
tables:
  app.orders:
    columns:
      tenant_id: { type: bigint, not_null: true }
      id: { type: bigint, not_null: true }
      status: app.status
      total: app.amount
    primary_key: [tenant_id, id]
    distributed_by: tenant_id
    colocation: tenants
  app.countries:
    reference: true
    columns:
      code: { type: text, not_null: true }
    primary_key: [code]
routines:
  app.touch: { file: routines/touch.sql, local: true }
sql: [sql]
`;
const OBJECTS = `CREATE EXTENSION IF NOT EXISTS citext;
CREATE TYPE app.status AS ENUM ('new', 'paid');
CREATE DOMAIN app.amount AS numeric CHECK (VALUE >= 0);
CREATE VIEW app.open_orders AS SELECT tenant_id, id FROM app.orders WHERE status = 'new';
ALTER TABLE app.orders ADD CONSTRAINT total_small CHECK (total < 1000000);
CREATE INDEX orders_total ON app.orders (tenant_id, (total * 2)) WHERE total > 0;
CREATE TRIGGER orders_touch BEFORE UPDATE ON app.orders FOR EACH ROW EXECUTE FUNCTION app.touch();
CREATE TRIGGER countries_touch BEFORE UPDATE ON app.countries FOR EACH ROW EXECUTE FUNCTION app.touch();
ALTER TABLE app.orders ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_rows ON app.orders USING (tenant_id > 0);
COMMENT ON TABLE app.orders IS 'orders by tenant';
COMMENT ON VIEW app.open_orders IS 'not yet paid';
`;

describe.skipIf(!citus)('objects defined by SQL on Citus', () => {
  it('Citus refuses triggers on distributed and reference tables unless citus.enable_unsafe_triggers is on (SET LOCAL is enough)', async () => {
    const db = await freshDatabase(citus!, 'so_facts');
    await db.query("CREATE TABLE d (id bigint PRIMARY KEY); SELECT create_distributed_table('d', 'id', shard_count => 4)");
    await db.query("CREATE TABLE r (id bigint PRIMARY KEY); SELECT create_reference_table('r')");
    await db.query('CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$');
    const trigger = (t: string): string => `CREATE TRIGGER tg BEFORE UPDATE ON ${t} FOR EACH ROW EXECUTE FUNCTION f()`;
    expect(await run(db.url, [trigger('d')])).toBe('triggers are not supported on distributed tables');
    expect(await run(db.url, [trigger('r')])).toBe('triggers are not supported on reference tables');
    expect(await run(db.url, ['BEGIN', 'SET LOCAL citus.enable_unsafe_triggers TO on', trigger('d'), trigger('r'), 'COMMIT'])).toBeUndefined();
    // The shards carry the trigger: an UPDATE on a worker's shard fires it.
    expect(await db.query<{ n: number }>("SELECT count(*)::int AS n FROM run_command_on_shards('d', $$SELECT tgname FROM pg_trigger WHERE tgrelid = '%s'::regclass AND tgname = 'tg'$$) WHERE success")).toEqual([{ n: 4 }]);
  });

  it('a project of objects applies in one transaction, reaches the workers, and plans empty; introspect reproduces it', async () => {
    const db = await freshDatabase(citus!, 'so_citus');
    const dir = mkdtempSync(join(tmpdir(), 'cm-socitus-'));
    mkdirSync(join(dir, 'sql'));
    mkdirSync(join(dir, 'routines'));
    writeFileSync(join(dir, 'citus-migrate.yaml'), MANIFEST);
    writeFileSync(join(dir, 'sql', 'objects.sql'), OBJECTS);
    writeFileSync(join(dir, 'routines', 'touch.sql'), 'CREATE FUNCTION app.touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;\n');
    const apply = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(apply.stdout).toContain('verified: planning again is empty');
    expect(apply.code).toBe(0);
    // On a worker: the extension, the types, the view, and the shards' index, check and trigger.
    const w = (q: string) => sql<{ v: string }>(citus!, db.name, q, 1);
    expect(await w("SELECT string_agg(extname, ',' ORDER BY extname) AS v FROM pg_extension WHERE extname = 'citext'")).toEqual([{ v: 'citext' }]);
    expect(await w("SELECT string_agg(typname, ',' ORDER BY typname) AS v FROM pg_type WHERE typname IN ('status', 'amount')")).toEqual([{ v: 'amount,status' }]);
    expect(await w("SELECT count(*)::text AS v FROM pg_views WHERE viewname = 'open_orders'")).toEqual([{ v: '1' }]);
    const onShards = async (q: string): Promise<number> => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM run_command_on_shards('app.orders', $$${q}$$) WHERE success AND result = '1'`))[0]!.n;
    expect(await onShards("SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = '%s'::regclass AND c.relname LIKE 'orders_total%%'")).toBe(4);
    expect(await onShards("SELECT count(*) FROM pg_constraint WHERE conrelid = '%s'::regclass AND conname LIKE 'total_small%%'")).toBe(4);
    expect(await onShards("SELECT count(*) FROM pg_trigger WHERE tgrelid = '%s'::regclass AND tgname LIKE 'orders_touch%%'")).toBe(4);
    expect(await onShards("SELECT count(*) FROM pg_policy WHERE polrelid = '%s'::regclass")).toBe(4);

    // Introspect that cluster and apply the result to another database: the same objects, and empty plans.
    const out = mkdtempSync(join(tmpdir(), 'cm-socitus-intro-'));
    expect((await cli(['introspect', '--database', db.url, '--out', join(out, 'citus-migrate.yaml')])).code).toBe(0);
    const plan = JSON.parse((await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: out })).stdout) as { changes: boolean; unmanaged: string[] };
    expect(plan).toMatchObject({ changes: false, unmanaged: [] });
    const db2 = await freshDatabase(citus!, 'so_citus2');
    const apply2 = await cli(['apply', '--database', db2.url, '--auto-approve'], { cwd: out });
    expect(apply2.stdout).toContain('verified: planning again is empty');
    const objects = async (url: string): Promise<string[]> => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return (await c.query<{ o: string }>(`SELECT pg_describe_object(classid, objid, objsubid) AS o FROM pg_depend
          WHERE refobjid = 'app'::regnamespace AND deptype = 'n' ORDER BY 1`)).rows.map((r) => r.o);
      } finally {
        await c.end();
      }
    };
    expect(await objects(db2.url)).toEqual(await objects(db.url));
  });
});
