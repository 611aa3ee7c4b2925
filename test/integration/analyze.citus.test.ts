// Procedure locality on a real cluster: `analyze` classifies each statement of the delegated
// routines (from their files, or from the catalog), validate warns at file:line, and `bench`
// measures what the delegated call runs on its worker and what it sends elsewhere, agreeing with
// the analysis, or saying where it does not.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hammerdbManifest } from '../../src/hammerdb/layout.js';
import { citusServers, freshDatabase, type TestDb } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

interface Statement {
  line: number;
  locality: string;
  why: string;
  tables: string[];
}
interface Routine {
  routine: string;
  colocation: string | null;
  file?: string;
  statements: Statement[];
}

/** Two warehouses whose shards are on different workers. */
async function twoWorkers(db: TestDb): Promise<[number, number]> {
  const rows = (await db.query(`SELECT w, p.nodeport FROM generate_series(1, 16) w,
      LATERAL (SELECT nodeport FROM pg_dist_shard_placement WHERE shardid = get_shard_id_for_distribution_column('warehouse', w)) p`)) as {
    w: number;
    nodeport: number;
  }[];
  const a = rows[0]!;
  const b = rows.find((r) => r.nodeport !== a.nodeport)!;
  return [a.w, b.w];
}

describe.skipIf(!citus)('procedure locality on Citus', () => {
  it('the TPC-C example: every statement stays on the worker, statically and measured', async () => {
    const db = await freshDatabase(citus!, 'loc');
    expect((await cli(['apply', '-f', 'examples/tpcc', '--database', db.url, '--auto-approve'])).code).toBe(0);
    db.psql({ file: 'examples/tpcc/load.sql', vars: { warehouses: '4' } });

    const a = await cli(['analyze', '-f', 'examples/tpcc', '--database', db.url, '--format', 'json']);
    expect(a.code).toBe(0);
    const doc = JSON.parse(a.stdout) as { format: string; routines: Routine[] };
    expect(doc.format).toBe('citus-migrate.analysis');
    expect(doc.routines.map((r) => [r.routine, r.colocation, r.file])).toEqual(
      [
        'delivery_tx(integer, integer)',
        'new_order_tx(integer, integer, integer, integer)',
        'order_status_tx(integer, integer, integer)',
        'payment_tx(integer, integer, integer, integer)',
        'stock_level_tx(integer, integer, integer)',
      ].map((r) => [`public.${r}`, 'warehouse', `examples/tpcc/routines/${r.split('(')[0]}.sql`]),
    );
    const localities = doc.routines.flatMap((r) => r.statements.map((s) => s.locality));
    expect(new Set(localities)).toEqual(new Set(['shard', 'reference']));
    expect(doc.routines[1]!.statements.find((s) => s.locality === 'reference')).toMatchObject({
      line: 28,
      tables: ['public.item'],
    });

    const b = await cli([
      'bench',
      '-f',
      'examples/tpcc',
      '--database',
      db.url,
      '--transactions',
      '50',
      '--clients',
      '2',
      '--warmup',
      '0s',
      '--format',
      'json',
    ]);
    expect(b.code).toBe(0);
    for (const w of JSON.parse(b.stdout).workloads) {
      expect(w.execution.delegatedTo).toBe(w.delegation.worker);
      expect(w.execution.remoteStatements).toBe(0);
      expect(w.execution.localStatements).toBeGreaterThan(0);
      expect(w.execution.analysis).toEqual({ crossShard: 0, coordinator: 0, unknown: 0, agrees: true });
    }

    // A routine the manifest delegates and the cluster does not (yet): analysed all the same, as
    // declared, and said so (it used to be skipped without a word).
    await db.query("SELECT create_distributed_function('delivery_tx(integer, integer)')");
    const again = await cli(['analyze', '-f', 'examples/tpcc', '--database', db.url, '--format', 'json']);
    const redoc = JSON.parse(again.stdout) as { routines: (Routine & { delegation?: string })[] };
    expect(redoc.routines.map((r) => [r.routine.split('(')[0], r.delegation, r.statements.length > 0])).toEqual([
      ['public.new_order_tx', 'cluster', true],
      ['public.order_status_tx', 'cluster', true],
      ['public.payment_tx', 'cluster', true],
      ['public.stock_level_tx', 'cluster', true],
      ['public.delivery_tx', 'manifest', true],
    ]);
    const text = await cli(['analyze', '-f', 'examples/tpcc', '--database', db.url]);
    expect(text.stdout).toContain('[not delegated in the cluster yet: as the manifest declares it]');
  });

  it('a statement on another warehouse: cross_shard in analyze and validate, measured remote in bench; a helper the analysis cannot see: disagreement said', async () => {
    const db = await freshDatabase(citus!, 'locx');
    const dir = mkdtempSync(join(tmpdir(), 'cm-loc-'));
    mkdirSync(join(dir, 'routines'));
    writeFileSync(
      join(dir, 'routines', 'pay.sql'),
      `-- payment by a customer of another warehouse
CREATE PROCEDURE pay(p_w_id integer, p_c_w_id integer)
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + 1 WHERE w_id = p_w_id;
  UPDATE customer SET c_balance = c_balance - 1 WHERE c_w_id = p_c_w_id AND c_id = 1;
END $$;
`,
    );
    writeFileSync(
      join(dir, 'routines', 'count_all.sql'),
      'CREATE FUNCTION count_all() RETURNS bigint LANGUAGE sql AS $$ SELECT count(*) FROM warehouse $$;\n',
    );
    writeFileSync(
      join(dir, 'routines', 'audit.sql'),
      `CREATE PROCEDURE audit(p_w_id integer)
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd WHERE w_id = p_w_id;
  PERFORM count_all();
END $$;
`,
    );
    const manifest = (wa: number, wb: number): string => `version: 1
colocation: { wh: { shard_count: 8, anchor: warehouse } }
tables:
  warehouse: { distributed_by: w_id, colocation: wh, columns: { w_id: { type: integer, not_null: true }, w_ytd: integer }, primary_key: [w_id] }
  customer: { distributed_by: c_w_id, colocation: wh, columns: { c_w_id: { type: integer, not_null: true }, c_id: { type: integer, not_null: true }, c_balance: integer }, primary_key: [c_w_id, c_id] }
routines:
  pay: { file: routines/pay.sql, distributed_by: p_w_id, colocation: wh }
  count_all: { file: routines/count_all.sql }
  audit: { file: routines/audit.sql, distributed_by: p_w_id, colocation: wh }
bench:
  transactions: 10
  workloads:
    pay: { sql: "CALL pay($1, $2)", params: [ { const: ${wa} }, { const: ${wb} } ] }
    audit: { sql: CALL audit($1), params: [ { const: ${wa} } ] }
`;
    writeFileSync(join(dir, 'citus-migrate.yaml'), manifest(1, 2));
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir })).code).toBe(0);
    await db.query(
      'INSERT INTO warehouse SELECT w, 0 FROM generate_series(1, 16) w; INSERT INTO customer SELECT w, 1, 0 FROM generate_series(1, 16) w',
    );
    const [wa, wb] = await twoWorkers(db);
    writeFileSync(join(dir, 'citus-migrate.yaml'), manifest(wa, wb));

    const v = await cli(['validate'], { cwd: dir });
    expect(v.code).toBe(0);
    expect(v.stderr).toContain(
      'warning: routines/pay.sql:6:1: routines.pay: cross_shard: public.customer by customer.c_w_id = p_c_w_id, not p_w_id',
    );

    // Without a manifest: the cluster's delegated routines, bodies from pg_get_functiondef.
    const a = await cli(['analyze', '--database', db.url, '--format', 'json'], {
      cwd: mkdtempSync(join(tmpdir(), 'cm-loc-empty-')),
    });
    expect(a.code).toBe(0);
    const routines = (JSON.parse(a.stdout) as { routines: Routine[] }).routines;
    expect(routines.map((r) => [r.routine, r.file, r.statements.map((s) => s.locality)])).toEqual([
      ['public.audit(integer)', undefined, ['shard']],
      ['public.pay(integer, integer)', undefined, ['shard', 'cross_shard']],
    ]);
    expect(routines[1]!.colocation).toMatch(/^colocation:\d+$/);

    const b = await cli(['bench', '--database', db.url, '--warmup', '0s', '--clients', '1', '--format', 'json'], {
      cwd: dir,
    });
    expect(b.code).toBe(0);
    const [pay, audit] = JSON.parse(b.stdout).workloads;
    expect(pay.execution).toMatchObject({
      localStatements: 1,
      remoteStatements: 1,
      analysis: { crossShard: 1, agrees: true },
    });
    expect(pay.execution.remote[0]).toMatch(/^UPDATE public\.customer_\d+ customer SET/);
    expect(audit.execution.remoteStatements).toBeGreaterThan(0); // count_all() reads every shard
    expect(audit.execution.analysis).toMatchObject({ crossShard: 0, agrees: false });
    expect(audit.execution.analysis.note).toMatch(
      /^measured \d+ shard command\(s\) sent to other nodes although the analysis found every statement local/,
    );
    const t = await cli(['bench', '--database', db.url, '--warmup', '0s', '--clients', '1', '--workload', 'audit'], {
      cwd: dir,
    });
    expect(t.stdout).toMatch(
      /audit: delegated to worker \S+; inside: \d+ shard command\(s\) on that worker, \d+ sent to other nodes \(DISAGREES with the analysis: measured/,
    );
  });

  it("HammerDB-shaped procedures read from the catalog: payment by another warehouse's customer is cross_shard, the rest stay on the shard", async () => {
    const db = await freshDatabase(citus!, 'lochdb');
    expect(db.psql({ file: 'test/fixtures/hammerdb/tables.sql' }).status).toBe(0);
    expect(db.psql({ file: 'test/fixtures/hammerdb/routines-procedures.sql' }).status).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'cm-lochdb-'));
    writeFileSync(join(dir, 'citus-migrate.yaml'), hammerdbManifest({ variant: 'procedures', shardCount: 8 }));
    expect(
      (await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir })).code,
    ).toBe(0);
    const a = await cli(['analyze', '--database', db.url, '--format', 'json'], { cwd: dir });
    expect(a.code).toBe(0);
    const routines = (JSON.parse(a.stdout) as { routines: Routine[] }).routines;
    const byName: Record<string, Routine> = Object.fromEntries(
      routines.map((r) => [r.routine.split('(')[0]!, r] as const),
    );
    expect(Object.keys(byName).sort()).toEqual([
      'public.delivery',
      'public.neword',
      'public.ostat',
      'public.payment',
      'public.slev',
    ]);
    expect(routines.every((r) => r.colocation === 'warehouse')).toBe(true);
    expect(byName['public.neword']!.statements.map((s) => s.locality)).toEqual([
      'shard',
      'shard',
      'shard',
      'shard',
      'shard',
    ]);
    expect(byName['public.delivery']!.statements.map((s) => s.locality)).toEqual(['shard']); // DELETE … = (SELECT min(…) … same warehouse)
    expect(byName['public.ostat']!.statements.map((s) => s.locality)).toEqual(['shard']);
    expect(byName['public.slev']!.statements.map((s) => s.locality)).toEqual(['shard']);
    expect(byName['public.payment']!.statements.map((s) => [s.locality, s.tables])).toEqual([
      ['shard', ['public.warehouse']],
      ['shard', ['public.district']],
      ['cross_shard', ['public.customer']],
    ]);
    expect(byName['public.payment']!.statements[2]!.why).toBe(
      'public.customer by customer.c_w_id = p_c_w_id, not p_w_id',
    );
  });
});
