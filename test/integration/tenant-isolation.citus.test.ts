// Tenant isolation (issue #40): a colocation group's `isolated` tenants get a shard of their own
// (isolate_tenant_to_new_shard, CASCADE, after COMMIT), the plan tells from the shards' hash
// ranges which already have one (the hash computed without the database: model/citus-hash.ts,
// compared here with worker_hash on the cluster), the group's shard count stays the one declared,
// and an isolated shard the manifest does not declare is named as not managed, never undone.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workerHash } from '../../src/model/citus-hash.js';
import { citusServers, freshDatabase } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const manifest = (isolated: string): string => `version: 1
colocation:
  tenants: { shard_count: 4${isolated ? `, isolated: [${isolated}]` : ''} }
tables:
  accounts:
    distributed_by: tenant
    colocation: tenants
    columns: { tenant: bigint, id: bigint, name: text }
    primary_key: [tenant, id]
  orders:
    distributed_by: tenant
    colocation: tenants
    columns: { tenant: bigint, id: bigint, amount: integer }
    primary_key: [tenant, id]
`;

describe.skipIf(!citus)('tenant isolation', () => {
  it("the hash a tenant's shard is at is worker_hash, for smallint, integer and bigint values", async () => {
    const db = await freshDatabase(citus!, 'worker_hash');
    const rows = await db.query<{ v: string; h2: number | null; h4: number | null; h8: number }>(
      `SELECT v::text AS v, CASE WHEN v BETWEEN -32768 AND 32767 THEN worker_hash(v::smallint) END AS h2,
              CASE WHEN v BETWEEN -2147483648 AND 2147483647 THEN worker_hash(v::int) END AS h4, worker_hash(v) AS h8
         FROM (SELECT (random() * 2 ^ (1 + (g % 63)) - 2 ^ (g % 63))::bigint AS v FROM generate_series(1, 500) g
               UNION ALL SELECT unnest(ARRAY[0, 1, -1, 32767, -32768, 2147483647, -2147483648, 9223372036854775807, -9223372036854775808]::bigint[])) x`,
    );
    for (const r of rows) {
      expect(workerHash(r.v, 'bigint'), `${r.v}::bigint`).toBe(r.h8);
      if (r.h4 !== null) expect(workerHash(r.v, 'integer'), `${r.v}::int`).toBe(r.h4);
      if (r.h2 !== null) expect(workerHash(r.v, 'smallint'), `${r.v}::smallint`).toBe(r.h2);
    }
  });

  it('isolates declared tenants for the whole group after COMMIT, plans empty after, names an undeclared one', async () => {
    const db = await freshDatabase(citus!, 'tenant_isolation');
    const dir = projectDir(manifest('42, 1001'));
    const planned = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(planned.stdout).toContain(
      `isolate tenant 42 of public.accounts and its colocated tables on a shard of its own (hash ${workerHash('42', 'bigint')}`,
    );
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'non_transactional'], {
      cwd: dir,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const single = async (t: string): Promise<number[]> =>
      (
        await db.query<{ h: number }>(
          `SELECT shardminvalue::int AS h FROM pg_dist_shard WHERE logicalrelid = '${t}'::regclass AND shardminvalue = shardmaxvalue ORDER BY 1`,
        )
      ).map((x) => x.h);
    const want = [workerHash('42', 'bigint')!, workerHash('1001', 'bigint')!].sort((a, b) => a - b);
    expect(await single('accounts')).toEqual(want);
    expect(await single('orders')).toEqual(want);
    expect(
      await db.query("SELECT count(*)::int AS n FROM pg_dist_shard WHERE logicalrelid = 'orders'::regclass"),
    ).toEqual([{ n: 8 }]);
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], { cwd: dir });
    expect(again.code, again.stdout + again.stderr).toBe(0);

    // 1001 no longer declared: named (Citus cannot merge its shard back), nothing planned; 7 added.
    writeFileSync(join(dir, 'citus-migrate.yaml'), manifest('42, 7'));
    const named = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], { cwd: dir });
    expect(named.code).toBe(2);
    const h1001 = workerHash('1001', 'bigint');
    expect(named.stdout).toContain(
      `shard isolation (2): public.accounts (hash ${h1001}), public.orders (hash ${h1001})`,
    );
    expect(named.stdout).toContain('isolate tenant 7 of public.accounts');
    expect(named.stdout).not.toContain('shard count');
    const seven = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'non_transactional'], {
      cwd: dir,
    });
    expect(seven.code, seven.stdout + seven.stderr).toBe(0);
    expect(await single('orders')).toContain(workerHash('7', 'bigint'));

    // introspect cannot give a hash's tenant back: it says it left the isolations out.
    const intro = await cli(['introspect', '--database', db.url], { cwd: dir });
    expect(intro.stderr).toContain('shard isolation');
  });
});
