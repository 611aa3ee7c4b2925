// Renaming a key on Citus tables: ALTER TABLE … RENAME CONSTRAINT is refused there ("renaming
// constraints belonging to distributed tables is currently unsupported"), so the plan renames
// the key's index, which Citus propagates to the shards and which renames the constraint.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const manifest = (suffix: string): string => `version: 1
tables:
  d:
    distributed_by: id
    columns: { id: bigint, u: int }
    primary_key: { name: d_pk${suffix}, columns: [id] }
    unique: [{ name: d_uq${suffix}, columns: [id, u] }]
  r:
    reference: true
    columns: { id: bigint }
    primary_key: { name: r_pk${suffix}, columns: [id] }
`;

const NAMES = `SELECT conrelid::regclass::text AS t, conname FROM pg_constraint
  WHERE contype IN ('p', 'u') AND conrelid IN ('d'::regclass, 'r'::regclass) ORDER BY 1, 2`;
const SHARD_NAMES = `SELECT count(*)::int AS n FROM pg_constraint WHERE conname ~ '^(d_pk|d_uq|r_pk)_[0-9]+$'`;

describe.skipIf(!citus)('key names on Citus', () => {
  it('a distributed and a reference table get their declared key names, then renamed ones', async () => {
    const db = await freshDatabase(citus!, 'keynames');
    const dir = mkdtempSync(join(tmpdir(), 'cm-keynames-citus-'));
    writeFileSync(join(dir, 'citus-migrate.yaml'), manifest(''));
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir })).code).toBe(0);
    expect(await db.query(NAMES)).toEqual([
      { t: 'd', conname: 'd_pk' },
      { t: 'd', conname: 'd_uq' },
      { t: 'r', conname: 'r_pk' },
    ]);
    writeFileSync(join(dir, 'citus-migrate.yaml'), manifest('2'));
    const plan = await cli(['plan', '--database', db.url, '--format', 'sql'], { cwd: dir });
    expect(plan.stdout).toContain('ALTER INDEX public.d_pk RENAME TO d_pk2;');
    expect(plan.stdout).toContain('ALTER INDEX public.r_pk RENAME TO r_pk2;');
    const applied = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    expect(await db.query(NAMES)).toEqual([
      { t: 'd', conname: 'd_pk2' },
      { t: 'd', conname: 'd_uq2' },
      { t: 'r', conname: 'r_pk2' },
    ]);
    // The shards' constraints are renamed too: no node keeps an old name.
    for (let n = 0; n < citus!.nodes.length; n++) expect(await db.query(SHARD_NAMES, n)).toEqual([{ n: 0 }]);
  });
});
