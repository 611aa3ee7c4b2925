// Changes Citus would refuse unless the plan prepares them, on a real coordinator + 2 workers:
// tables with triggers distributed, and their colocation group given another shard count.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, firstError, freshDatabase } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const TRIGGER_SQL = `CREATE FUNCTION stamp() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.v := coalesce(NEW.v, 0) + 1; RETURN NEW; END $$;
CREATE TRIGGER stamp BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION stamp();
`;

const manifest = (shards: number): string => `version: 1
colocation:
  tenants: { shard_count: ${shards}, anchor: accounts }
tables:
  accounts:
    distributed_by: id
    colocation: tenants
    columns: { id: { type: bigint, not_null: true } }
    primary_key: [id]
  orders:
    distributed_by: account_id
    colocation: tenants
    columns: { account_id: { type: bigint, not_null: true }, v: int }
routines:
  stamp: { file: stamp.sql }
sql: [triggers.sql]
`;

describe.skipIf(!citus)('changes Citus refuses unless prepared', () => {
  it('distributes a table that has a trigger, then changes its group shard count (citus.enable_unsafe_triggers set for those steps)', async () => {
    const db = await freshDatabase(citus!, 'unsafe_trg');
    // Pinned: Citus refuses both without the setting.
    expect(
      await firstError(db.url, [
        'CREATE TABLE probe (id int, v int)',
        'CREATE FUNCTION probe_f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$',
        'CREATE TRIGGER t BEFORE INSERT ON probe FOR EACH ROW EXECUTE FUNCTION probe_f()',
        "SELECT create_distributed_table('probe', 'id')",
      ]),
    ).toBe('cannot distribute relation "probe" because it has triggers');
    await db.query('DROP TABLE IF EXISTS probe; DROP FUNCTION IF EXISTS probe_f()');

    const cwd = mkdtempSync(join(tmpdir(), 'cm-unsafe-trg-'));
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, 'citus-migrate.yaml'), manifest(4));
    writeFileSync(join(cwd, 'stamp.sql'), TRIGGER_SQL.split('\n')[0]! + '\n');
    writeFileSync(join(cwd, 'triggers.sql'), TRIGGER_SQL.split('\n')[1]! + '\n');
    // The tables exist locally, with rows and the trigger, before the manifest distributes them.
    await db.query('CREATE TABLE accounts (id bigint NOT NULL PRIMARY KEY)');
    await db.query('CREATE TABLE orders (account_id bigint NOT NULL, v int)');
    await db.query(TRIGGER_SQL.split('\n')[0]!);
    await db.query(TRIGGER_SQL.split('\n')[1]!);
    await db.query(
      'INSERT INTO accounts SELECT generate_series(1, 50); INSERT INTO orders SELECT i, i FROM generate_series(1, 50) i',
    );

    const plan = await cli(['plan', '--database', db.url, '--format', 'sql'], { cwd });
    // Its triggers (and its partitions') paused around the copy, each restored after (checks/paused-triggers.ts).
    expect(plan.stdout).toContain(
      "SET LOCAL citus.enable_unsafe_triggers TO on;\nSELECT pg_catalog.set_config('citus_migrate.pause_triggers_of', 'public.orders', true);\nDO $cm$\n",
    );
    expect(plan.stdout).toMatch(
      /\$cm\$;\nSELECT pg_catalog\.create_distributed_table\('public\.orders'.*\nDO \$cm\$\n/,
    );
    const first = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'copies_data'], {
      cwd,
    });
    expect(first.stderr).not.toContain('error');
    expect(first.code).toBe(0);

    // The copy into the shards did not fire the trigger again (each row was stamped once, on insert).
    expect(await db.query('SELECT count(*)::int AS n, sum(v)::int AS s FROM orders')).toEqual([{ n: 50, s: 1325 }]);
    expect(db.psql({ input: 'INSERT INTO orders VALUES (7, 0);' }).status).toBe(0);
    expect(await db.query('SELECT v FROM orders WHERE account_id = 7 AND v = 1')).toEqual([{ v: 1 }]);
    writeFileSync(join(cwd, 'citus-migrate.yaml'), manifest(8));
    const again = await cli(['plan', '--database', db.url, '--format', 'sql'], { cwd });
    expect(again.stdout).toMatch(
      /SET LOCAL citus\.enable_unsafe_triggers TO on;\nSELECT pg_catalog\.alter_distributed_table\('public\.accounts'/,
    );
    const second = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'rewrites_table'], {
      cwd,
    });
    expect(second.stderr).not.toContain('error');
    expect(second.code).toBe(0);
    expect(
      await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_dist_shard WHERE logicalrelid = 'orders'::regclass",
      ),
    ).toEqual([{ n: 8 }]);
    expect(await db.query('SELECT count(*)::int AS n, sum(v)::int AS s FROM orders')).toEqual([{ n: 51, s: 1326 }]);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd })).code).toBe(0);
  });

  it('an existing table whose primary key leaves out the distribution column is a plan problem, not a failed apply', async () => {
    const db = await freshDatabase(citus!, 'key_problem');
    // Pinned: what Citus says.
    const refused = await firstError(db.url, [
      'CREATE TABLE probe (id bigint PRIMARY KEY, tenant bigint)',
      "SELECT create_distributed_table('probe', 'tenant')",
    ]);
    expect(refused).toBe('cannot create constraint on "probe"');
    await db.query('DROP TABLE IF EXISTS probe');
    await db.query('CREATE TABLE orders (id bigint PRIMARY KEY, tenant bigint NOT NULL, code text UNIQUE)');
    const cwd = mkdtempSync(join(tmpdir(), 'cm-key-problem-'));
    writeFileSync(
      join(cwd, 'citus-migrate.yaml'),
      'version: 1\ntables:\n  orders: { distributed_by: tenant, shard_count: 4 }\n',
    );
    const plan = await cli(['plan', '--database', db.url], { cwd });
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(
      'table public.orders: its primary key (id) does not include the distribution column tenant: Citus refuses to distribute it',
    );
    expect(plan.stdout).toContain('table public.orders: its unique constraint (code) does not include');
    const apply = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd });
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('the plan has problems; nothing was run');
    expect(
      await db.query("SELECT count(*)::int AS n FROM pg_dist_partition WHERE logicalrelid = 'orders'::regclass"),
    ).toEqual([{ n: 0 }]);
  });
});
