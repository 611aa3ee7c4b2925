// Statistics a user made (CREATE STATISTICS) on an extension's table: the table is the
// extension's, the statistics object is not. It is adopted (introspect writes it, the plan of the
// same database is empty), compared whether declared or not (one the files do not declare is
// unmanaged, dropped with prune), with its comment and owner; named as not managed before.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

describe("statistics on an extension's table", () => {
  it('are adopted, compared and pruned like any statistics object', async () => {
    const db = await freshDatabase(plainServers(), 'xst');
    // An extension whose script makes no table: the table is made its member by hand, as an
    // extension's script would have made it.
    await db.query(`CREATE EXTENSION file_fdw;
      CREATE TABLE ext_t (a integer, b integer);
      ALTER EXTENSION file_fdw ADD TABLE ext_t;
      CREATE STATISTICS ext_ab ON a, b FROM ext_t;
      ALTER STATISTICS ext_ab SET STATISTICS 500;
      COMMENT ON STATISTICS ext_ab IS 'mine'`);
    const dir = projectDir({});
    const intro = await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: dir });
    expect(intro.code, intro.stderr).toBe(0);
    expect(intro.stderr).not.toContain('left out');
    expect(readFileSync(join(dir, 'sql', 'statistics.sql'), 'utf8')).toContain(
      'CREATE STATISTICS public.ext_ab ON a, b FROM ext_t;',
    );
    const same = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], { cwd: dir });
    expect(same.code, same.stdout).toBe(0);

    // Changed in the database: planned back.
    await db.query('ALTER STATISTICS ext_ab SET STATISTICS 100');
    const back = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(back.code, back.stdout + back.stderr).toBe(0);
    expect(back.stdout).toContain('verified: planning again is empty');
    expect(await db.query("SELECT stxstattarget FROM pg_statistic_ext WHERE stxname = 'ext_ab'")).toEqual([
      { stxstattarget: 500 },
    ]);

    // Not declared: unmanaged (a drift check exits 2), then pruned.
    writeFileSync(join(dir, 'sql', 'statistics.sql'), '');
    writeFileSync(join(dir, 'sql', 'comments.sql'), '');
    const drift = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], {
      cwd: dir,
    });
    expect(drift.code, drift.stdout).toBe(2);
    expect(drift.stdout).toContain('statistics object public.ext_ab');
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      `${readFileSync(join(dir, 'citus-migrate.yaml'), 'utf8')}prune: true\n`,
    );
    const pruned = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
    expect(await db.query("SELECT 1 FROM pg_statistic_ext WHERE stxname = 'ext_ab'")).toEqual([]);
    // The extension's table stays.
    expect(await db.query("SELECT 1 FROM pg_class WHERE relname = 'ext_t'")).toHaveLength(1);
  });
});
