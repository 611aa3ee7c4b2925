// Publications (CREATE PUBLICATION) on Citus: one of a distributed table, declared in the sql:
// files, applied in the plan's transaction with the table, propagated by Citus to the workers,
// planning empty, read back by introspect, and pruned from every node.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const MANIFEST = (prune: boolean) => `version: 1
${prune ? 'prune: true\n' : ''}tables:
  app.orders:
    columns:
      tenant_id: { type: bigint, not_null: true }
      id: { type: bigint, not_null: true }
      total: numeric
    primary_key: [tenant_id, id]
    distributed_by: tenant_id
    shard_count: 4
sql: [sql]
`;

describe.skipIf(!citus)('publications on Citus', () => {
  it('a publication of a distributed table applies with the table, reaches the workers, plans empty, is read back and pruned', async () => {
    const db = await freshDatabase(citus!, 'pub');
    await db.query('CREATE SCHEMA app');
    const dir = mkdtempSync(join(tmpdir(), 'cm-pub-'));
    mkdirSync(join(dir, 'sql'));
    writeFileSync(join(dir, 'citus-migrate.yaml'), MANIFEST(false));
    writeFileSync(
      join(dir, 'sql', 'publications.sql'),
      "CREATE PUBLICATION orders_feed FOR TABLE app.orders WITH (publish = 'insert, update');\n",
    );
    const apply = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(apply.code, apply.stderr + apply.stdout).toBe(0);
    expect(apply.stdout).toContain('verified: planning again is empty');
    const onWorker = async (): Promise<number> =>
      (
        await sql<{ n: number }>(
          citus!,
          db.name,
          "SELECT count(*)::int AS n FROM pg_publication WHERE pubname = 'orders_feed'",
          1,
        )
      )[0]!.n;
    expect(await onWorker()).toBe(1);

    const out = mkdtempSync(join(tmpdir(), 'cm-pub-intro-'));
    const intro = await cli(['introspect', '--database', db.url, '--out', join(out, 'citus-migrate.yaml')]);
    expect(intro.code, intro.stderr).toBe(0);
    expect(intro.stderr, intro.stderr).not.toContain('publication');
    expect(readFileSync(join(out, 'sql', 'publications.sql'), 'utf8')).toContain(
      'ALTER PUBLICATION orders_feed ADD TABLE ONLY app.orders',
    );
    const replan = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], {
      cwd: out,
    });
    expect(replan.code, replan.stdout + replan.stderr).toBe(0);

    writeFileSync(join(dir, 'citus-migrate.yaml'), MANIFEST(true));
    writeFileSync(join(dir, 'sql', 'publications.sql'), '');
    const drop = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'drops_data'], {
      cwd: dir,
    });
    expect(drop.code, drop.stderr + drop.stdout).toBe(0);
    expect(await onWorker()).toBe(0);
  });
});
