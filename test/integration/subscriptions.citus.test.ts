// Subscriptions on Citus (Citus 13.2), pinned: CREATE SUBSCRIPTION is not propagated (the
// coordinator's alone), and a subscription writes into the coordinator's own tables beneath
// Citus, so into a distributed table its rows land in the coordinator's shell table, which
// Citus's queries never read, and never reach a shard; into a local table they arrive. The plan
// warns when it makes one on Citus, and a declared subscription that receives a Citus table is
// a plan problem (citus_subscription_table).
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, plainServers, pollCount, sql, type TestDb } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();
const plain = plainServers();

/** A publisher on the plain server: orders and items with rows, a publication of each, the slot. */
async function publisher(slot: string): Promise<{ pub: TestDb; conn: string }> {
  const pub = await freshDatabase(plain, 'csubpub');
  await pub.query(`CREATE TABLE orders (tenant int, id int, PRIMARY KEY (tenant, id));
    CREATE TABLE items (id int PRIMARY KEY);
    INSERT INTO orders SELECT g % 4, g FROM generate_series(1, 5) g;
    INSERT INTO items SELECT generate_series(1, 3);
    CREATE PUBLICATION orders_pub FOR TABLE orders;
    CREATE PUBLICATION items_pub FOR TABLE items`);
  await pub.query(`SELECT pg_create_logical_replication_slot('${slot}', 'pgoutput')`);
  const node = plain.nodes[0]!;
  return { pub, conn: `host=${node.host} port=${node.port} dbname=${pub.name} user=${plain.user}` };
}

const MANIFEST = `version: 1
sql: [subscriptions.sql]
tables:
  orders: { distributed_by: tenant, columns: { tenant: { type: integer, not_null: true }, id: { type: integer, not_null: true } }, primary_key: [tenant, id] }
  items: { local: true, columns: { id: { type: integer, not_null: true } }, primary_key: [id] }
`;

describe.skipIf(!citus)('subscriptions on Citus', () => {
  it("are the coordinator's; rows into a distributed table never reach a shard, which the plan warns of and then refuses", async () => {
    const slot = `csub_${Date.now()}`;
    const { pub, conn } = await publisher(slot);
    const db = await freshDatabase(citus!, 'csub');
    const dir = projectDir({
      'citus-migrate.yaml': MANIFEST,
      'subscriptions.sql': `CREATE SUBSCRIPTION feed CONNECTION '\${env:FEED}' PUBLICATION orders_pub, items_pub WITH (create_slot = false, slot_name = '${slot}');\n`,
    });
    const run = (args: string[]) => cli([...args, '--database', db.url], { cwd: dir, env: { FEED: conn } });
    try {
      const planned = await run(['plan']);
      expect(planned.code, planned.stdout + planned.stderr).toBe(0);
      expect(planned.stdout).toContain('subscription feed is made on a Citus coordinator');
      // Applied, and the verification's plan names the problem at once: never "verified".
      const applied = await run(['apply', '--auto-approve']);
      expect(applied.code, applied.stdout + applied.stderr).toBe(1);
      expect(applied.stderr).toContain('applied, but the cluster did not converge: planning again reports 1 problem');
      expect(applied.stderr).toContain('subscription feed: receives public.orders (hash)');
      // Not propagated: the workers have no subscription.
      for (const node of [1, 2])
        expect(
          await sql<{ n: number }>(citus!, db.name, 'SELECT count(*)::int AS n FROM pg_subscription', node),
        ).toEqual([{ n: 0 }]);
      // Into the local table the rows arrive; into the distributed one they land in the coordinator's table.
      expect(await pollCount(db, 'SELECT count(*)::int AS n FROM items', (n) => n === 3)).toBe(true);
      const landed = "SELECT n_tup_ins::int AS n FROM pg_stat_user_tables WHERE relid = 'orders'::regclass";
      expect(await pollCount(db, landed, (n) => n === 5)).toBe(true);
      expect(await db.query('SELECT count(*)::int AS n FROM orders')).toEqual([{ n: 0 }]);
      const shards = await db.query<{ n: number }>(
        "SELECT sum(result::int)::int AS n FROM run_command_on_shards('orders', 'SELECT count(*) FROM %s')",
      );
      expect(shards).toEqual([{ n: 0 }]);

      // Declared, it is a plan problem now that its tables are known.
      const again = await run(['plan']);
      expect(again.code, again.stdout).toBe(1);
      expect(again.stdout).toContain('subscriptions.sql:1:1: subscription feed: receives public.orders (hash)');
      const json = JSON.parse((await run(['plan', '--format', 'json'])).stdout) as { problems: { code: string }[] };
      expect(json.problems.map((p) => p.code)).toEqual(['citus_subscription_table']);
      expect(again.stdout).not.toContain('public.items (');
    } finally {
      await db
        .query(
          'ALTER SUBSCRIPTION feed DISABLE; ALTER SUBSCRIPTION feed SET (slot_name = NONE); DROP SUBSCRIPTION feed',
        )
        .catch(() => undefined);
      await pub.query(`SELECT pg_drop_replication_slot('${slot}')`).catch(() => undefined);
    }
  });
});
