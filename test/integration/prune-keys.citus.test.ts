// Prune of keys and foreign keys on Citus tables: ALTER TABLE … DROP CONSTRAINT of a distributed
// table's primary key, unique constraint and foreign key (to a reference table, and from a
// colocated table), of a reference table's foreign key and keys,
// and of a local table's foreign key to a reference table (Citus added that table to its metadata
// for the key, and takes it out again when the key goes) is propagated to the shards; the plan
// applies and planning again is empty.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const manifest = (full: boolean, tenant = 'bigint'): string => `version: 1
prune: true
colocation:
  g: { shard_count: 4, anchor: d }
tables:
  r:
    reference: true
    columns: { id: bigint, code: text }
${full ? '    primary_key: [id]\n    unique: [[code]]\n' : ''}  r2:
    reference: true
    columns: { id: bigint, r_id: bigint }
    primary_key: [id]
${full ? '    foreign_keys: [{ columns: [r_id], references: r, ref_columns: [id] }]\n' : ''}  d:
    distributed_by: tenant
    colocation: g
    columns: { tenant: ${tenant}, id: bigint, email: text, r_id: bigint }
${full ? '    primary_key: [tenant, id]\n    unique: [{ name: d_email_uq, columns: [tenant, email] }]\n    foreign_keys: [{ columns: [r_id], references: r, ref_columns: [id] }]\n' : ''}  d2:
    distributed_by: tenant
    colocation: g
    columns: { tenant: bigint, id: bigint }
    primary_key: [tenant, id]
${full ? '    foreign_keys: [{ columns: [tenant, id], references: d, ref_columns: [tenant, id] }]\n' : ''}  l:
    columns: { id: bigint, r_id: bigint }
${full ? '    foreign_keys: [{ columns: [r_id], references: r, ref_columns: [id] }]\n' : ''}`;

// Constraints of the five tables and of their shards, on one node.
const CONSTRAINTS = `SELECT conname FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
  WHERE t.relname ~ '^(r|r2|d|d2|l)(_[0-9]+)?$' AND c.contype IN ('p', 'u', 'f') ORDER BY 1`;

describe.skipIf(!citus)('prune of keys and foreign keys on Citus', () => {
  it("drops distributed and reference tables' keys and foreign keys, foreign keys first, and plans empty again", async () => {
    const db = await freshDatabase(citus!, 'prunekeys');
    const dir = mkdtempSync(join(tmpdir(), 'cm-prunekeys-citus-'));
    writeFileSync(join(dir, 'citus-migrate.yaml'), manifest(true));
    const first = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    // Citus added the local table l to its metadata for its foreign key to a reference table.
    expect(await db.query(`SELECT partmethod FROM pg_dist_partition WHERE logicalrelid = 'l'::regclass`)).toEqual([
      { partmethod: 'n' },
    ]);

    // Without its primary key, a distribution column declared nullable would lose NOT NULL:
    // Citus refuses that ("cannot execute ALTER TABLE command involving partition column").
    writeFileSync(join(dir, 'citus-migrate.yaml'), manifest(false));
    const refused = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
    const problems = (JSON.parse(refused.stdout) as { problems: { code: string; object: string }[] }).problems;
    expect(problems.map((p) => `${p.code} ${p.object}`)).toEqual(['citus_refuses_alter column public.d.tenant']);

    writeFileSync(join(dir, 'citus-migrate.yaml'), manifest(false, '{ type: bigint, not_null: true }'));
    const plan = await cli(['plan', '--database', db.url, '--format', 'sql'], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(0);
    const drops = plan.stdout.split('\n').filter((l) => l.includes('DROP CONSTRAINT'));
    // Foreign keys first, then the keys they referenced.
    expect(drops).toEqual([
      'ALTER TABLE public.d DROP CONSTRAINT d_r_id_fkey;',
      'ALTER TABLE public.d2 DROP CONSTRAINT d2_tenant_id_fkey;',
      'ALTER TABLE public.l DROP CONSTRAINT l_r_id_fkey;',
      'ALTER TABLE public.r2 DROP CONSTRAINT r2_r_id_fkey;',
      'ALTER TABLE public.r DROP CONSTRAINT r_pkey;',
      'ALTER TABLE public.r DROP CONSTRAINT r_code_key;',
      'ALTER TABLE public.d DROP CONSTRAINT d_pkey;',
      'ALTER TABLE public.d DROP CONSTRAINT d_email_uq;',
    ]);
    const applied = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], {
      cwd: dir,
    });
    expect(applied.code, applied.stderr).toBe(0);
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], {
      cwd: dir,
    });
    expect(again.code, again.stdout).toBe(0);
    // Gone from the shards too: only the declared primary keys are left on every node.
    for (let n = 0; n < citus!.nodes.length; n++) {
      const left = (await db.query<{ conname: string }>(CONSTRAINTS, n)).map((r) => r.conname);
      expect(
        left.filter((c) => !/^(d2|r2)_pkey(_[0-9]+)?$/.test(c)),
        `node ${n}`,
      ).toEqual([]);
    }
    // And l is a plain local table again.
    expect(
      await db.query(`SELECT count(*)::int AS n FROM pg_dist_partition WHERE logicalrelid = 'l'::regclass`),
    ).toEqual([{ n: 0 }]);
  });

  it('refuses SET / DROP DEFAULT and DROP NOT NULL on a distribution column, and takes SET NOT NULL (docs/citus-facts.md)', async () => {
    const db = await freshDatabase(citus!, 'distcolalter');
    await db.query('CREATE TABLE pin (t bigint NOT NULL, v int)');
    await db.query("SELECT create_distributed_table('pin', 't', shard_count => 2)");
    for (const alter of ['SET DEFAULT 5', 'DROP DEFAULT', 'DROP NOT NULL'])
      await expect(db.query(`ALTER TABLE pin ALTER COLUMN t ${alter}`)).rejects.toThrow(
        'cannot execute ALTER TABLE command involving partition column',
      );
    await db.query('ALTER TABLE pin ALTER COLUMN t SET NOT NULL');
    await db.query('ALTER TABLE pin ALTER COLUMN v SET DEFAULT 5');
  });
});
