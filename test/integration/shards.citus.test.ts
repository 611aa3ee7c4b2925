// `plan --shards` / `apply --shards` on a real coordinator + 2 workers (issue #24): shards broken
// by hand on the workers — an index dropped with Citus's propagation out of the way (straight on
// the shard), an index left invalid (as a failed CREATE INDEX CONCURRENTLY leaves it), a CHECK
// constraint and a trigger dropped — are each named with a repair step and exit 2; apply's repair
// fixes them and verifies them; the next `plan --shards` is empty. A shard that lost a foreign key
// or a column is a problem (exit 1), not a silent pass.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql, type TestDb } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const SCHEMA = [
  'SET citus.shard_count = 4',
  'CREATE TABLE countries (code text PRIMARY KEY)',
  "SELECT create_reference_table('countries')",
  'CREATE TABLE orders (id bigint, tenant int NOT NULL, country text REFERENCES countries, total int CHECK (total >= 0), PRIMARY KEY (tenant, id))',
  'CREATE INDEX orders_country ON orders (country) WHERE total > 0',
  'CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$',
  'SET citus.enable_unsafe_triggers = on',
  "SELECT create_distributed_table('orders', 'tenant')",
  'CREATE TRIGGER orders_touch BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION touch()',
];

/** The shards of orders on worker `node` (1 or 2), by name, lowest shard id first. */
async function shardsOn(db: TestDb, node: number): Promise<string[]> {
  const rows = await db.query<{ shard: string }>(
    `SELECT shard_name('orders'::regclass, s.shardid, false) AS shard FROM pg_dist_shard s
       JOIN pg_dist_placement p USING (shardid) JOIN pg_dist_node n USING (groupid)
      WHERE s.logicalrelid = 'orders'::regclass AND n.nodeport = ${citus!.nodes[node]!.registerAs?.port ?? citus!.nodes[node]!.port}
      ORDER BY s.shardid`,
  );
  return rows.map((r) => r.shard);
}

interface PlanJson {
  afterCommit: { kind: string; summary: string }[];
  problems: { code: string; object: string; message: string }[];
}

describe.skipIf(!citus)('plan --shards', () => {
  it('names each shard that lost an index, constraint or trigger or holds an invalid index (exit 2), apply --shards repairs them and verifies, the next plan --shards is empty', async () => {
    const db = await freshDatabase(citus!, 'sh');
    await sql(citus!, db.name, SCHEMA);
    const dir = mkdtempSync(join(tmpdir(), 'cm-shards-'));
    expect((await cli(['introspect', '--database', db.url, '--out', join(dir, 'citus-migrate.yaml')])).code).toBe(0);
    const plan = (...extra: string[]) =>
      cli(['plan', '--database', db.url, '--shards', '--detailed-exitcode', ...extra], { cwd: dir });
    expect((await plan()).code, 'a healthy cluster: nothing to repair').toBe(0);

    const [s1a, s1b] = await shardsOn(db, 1);
    const [s2a] = await shardsOn(db, 2);
    // Straight on the workers' shards, as DDL run with propagation off or a failed build leaves them.
    await sql(
      citus!,
      db.name,
      [
        `DROP INDEX ${s1a!.replace('orders_', 'orders_country_')}`,
        `ALTER TABLE ${s1b} DROP CONSTRAINT orders_total_check`,
        `DROP TRIGGER orders_touch_${s1b!.split('_').pop()} ON ${s1b}`,
      ],
      1,
    );
    // What a failed CREATE INDEX CONCURRENTLY leaves: the index there, marked invalid.
    await db.query(
      `UPDATE pg_index SET indisvalid = false WHERE indexrelid = '${s2a!.replace('orders_', 'orders_pkey_')}'::regclass`,
      2,
    );

    const broken = await plan('--format', 'json');
    expect(broken.code, broken.stderr).toBe(2);
    const doc = JSON.parse(broken.stdout) as PlanJson;
    expect(doc.problems).toEqual([]);
    const lines = doc.afterCommit.map((s) => `${s.kind}: ${s.summary.replace(/ on [^ ]+:\d+:/, ' on NODE:')}`).sort();
    expect(lines).toEqual(
      [
        `repair_shard: repair shard ${s1a} (${s1a!.split('_').pop()}) on NODE: index orders_country is missing; create the missing index`,
        `repair_shard: repair shard ${s1b} (${s1b!.split('_').pop()}) on NODE: constraint orders_total_check is missing; add the missing constraint`,
        `repair_shard: repair shard ${s1b} (${s1b!.split('_').pop()}) on NODE: trigger orders_touch is missing; create the missing trigger`,
        `repair_shard: repair shard ${s2a} (${s2a!.split('_').pop()}) on NODE: index ${s2a!.replace('orders_', 'orders_pkey_').replace('public.', '')} is invalid; rebuild the invalid index`,
      ].sort(),
    );
    // Without --shards the coordinator's view is all the plan reads.
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);

    const applied = await cli(
      ['apply', '--database', db.url, '--shards', '--auto-approve', '--allow-hazards', 'non_transactional'],
      { cwd: dir },
    );
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('verified: planning again is empty');
    expect((await plan()).code, 'repaired: plan --shards is empty').toBe(0);
    const valid = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_index WHERE NOT indisvalid AND indrelid = '${s2a}'::regclass`,
      2,
    );
    expect(valid[0]!.n).toBe(0);

    // What a step cannot repair is a problem naming the shard.
    await db.query(`ALTER TABLE ${s2a} DROP CONSTRAINT ${s2a!.replace('public.orders_', 'orders_country_fkey_')}`, 2);
    const fk = await plan('--format', 'json');
    expect(fk.code).toBe(1);
    const fkDoc = JSON.parse(fk.stdout) as PlanJson;
    expect(fkDoc.problems.map((p) => [p.code, p.object.replace(/ on [^ ]+:\d+$/, ''), p.message])).toEqual([
      [
        'shard_constraint_missing',
        `shard ${s2a} (${s2a!.split('_').pop()}) of table public.orders`,
        'foreign key orders_country_fkey is missing (FOREIGN KEY (country) REFERENCES public.countries(code))',
      ],
    ]);
  });
});
