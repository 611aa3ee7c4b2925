// The CLI contract: exit codes, stdout for data, stderr for messages, JSON error envelopes.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/run-cli.js';

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cm-cli-'));
  for (const [f, t] of Object.entries(files)) writeFileSync(join(dir, f), t);
  return dir;
}

describe('validate', () => {
  it('exits 0 on a valid manifest, printing warnings on stderr', async () => {
    const r = await cli(['validate', '-f', 'templates/saas/citus-migrate.yaml']);
    expect(r).toMatchObject({
      code: 0,
      stdout: 'templates/saas/citus-migrate.yaml is valid (5 tables, 2 routines, 2 sequences)\n',
      stderr: '',
    });
  });

  it('exits 1 with every problem on stderr', async () => {
    const dir = project({
      'citus-migrate.yaml': 'version: 1\ntables:\n  t: { distributed_by: a, reference: true, bogus: 1 }\n',
    });
    const r = await cli(['validate'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    // Both at once (was: the rule's problem only after the unknown key was removed).
    expect(r.stderr).toBe(
      'error: citus-migrate.yaml:3:6: tables.t: a table is at most one of distributed, reference, local and single_shard; this one is distributed (distributed_by) and reference\nerror: citus-migrate.yaml:3:44: tables.t.bogus: unknown key "bogus"\nmanifest is invalid: 2 problems\n',
    );
  });

  it("reports an unknown key and the rules' problems in one pass", async () => {
    const dir = project({
      'citus-migrate.yaml':
        'version: 1\ntables:\n  t:\n    distributed_by: tenant\n    columns: { id: { type: int, not_null: true }, tenant: int }\n    primary_key: [id]\n    frobnicate: 1\n',
    });
    const r = await cli(['validate', '-f', join(dir, 'citus-migrate.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error: '))).toEqual([
      expect.stringContaining(
        'tables.t.primary_key: primary key (id) does not include the distribution column "tenant"',
      ),
      expect.stringContaining('tables.t.frobnicate: unknown key "frobnicate"'),
    ]);
  });

  it('counts in the singular for one', async () => {
    const dir = project({
      'citus-migrate.yaml':
        'version: 1\ntables:\n  t: { local: true, columns: { a: integer } }\nroutines:\n  f: { signature: "f(int)" }\nsequences:\n  s: {}\n',
    });
    const r = await cli(['validate'], { cwd: dir });
    expect(r).toMatchObject({ code: 0, stdout: 'citus-migrate.yaml is valid (1 table, 1 routine, 1 sequence)\n' });
  });

  it('-f DIR reads citus-migrate.yaml in that folder', async () => {
    const dir = project({ 'citus-migrate.yaml': 'version: 1\n' });
    const r = await cli(['validate', '-f', dir]);
    expect(r).toMatchObject({
      code: 0,
      stdout: `${join(dir, 'citus-migrate.yaml')} is valid (0 tables, 0 routines, 0 sequences)\n`,
      stderr: '',
    });
    const empty = project({});
    const none = await cli(['validate', '-f', empty]);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(
      `error: no manifest: none of citus-migrate.yaml, citus-migrate.yml, citus-migrate.json is in ${empty}; pass -f FILE\n`,
    );
  });

  it('says which manifest is missing', async () => {
    const r = await cli(['validate'], { cwd: project({}) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: no manifest: none of citus-migrate.yaml, citus-migrate.yml, citus-migrate.json is in .*; pass -f FILE\n$/,
    );
  });
});

describe('plan', () => {
  it('prints SQL on stdout only', async () => {
    const r = await cli(['plan', '--offline', '-f', 'templates/hammerdb/citus-migrate.yaml', '--format', 'sql']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n').filter((l) => l && !l.startsWith('--'))[0]).toBe('BEGIN;');
    expect(r.stdout.trimEnd().endsWith('COMMIT;')).toBe(true);
  });

  it('--detailed-exitcode: 2 when changes are pending, 0 when none', async () => {
    expect(
      (await cli(['plan', '--offline', '--detailed-exitcode', '-f', 'templates/pgbench/citus-migrate.yaml'])).code,
    ).toBe(2);
    const dir = project({ 'citus-migrate.yaml': 'version: 1\n' });
    expect((await cli(['plan', '--offline', '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });

  it('exits 3 on an invalid manifest, with a JSON envelope for --format json', async () => {
    const dir = project({ 'citus-migrate.yaml': 'version: 2\n' });
    const r = await cli(['plan', '--offline', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(3);
    const env = JSON.parse(r.stdout);
    expect(env.error).toMatchObject({
      code: 'invalid_manifest',
      exitCode: 3,
      problems: [{ path: 'version', line: 1, col: 10, message: 'expected 1, got number 2' }],
    });
  });

  it('--out writes the plan to a file and says so on stderr', async () => {
    const dir = project({});
    const r = await cli(
      [
        'plan',
        '--offline',
        '-f',
        join(process.cwd(), 'templates/pgbench/citus-migrate.yaml'),
        '--format',
        'json',
        '--out',
        'plan.json',
      ],
      { cwd: dir },
    );
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: 'wrote plan.json\n' });
    expect(JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')).format).toBe('citus-migrate.plan');
  });

  it('refuses conflicting and unknown flags with exit 64', async () => {
    expect(
      (await cli(['plan', '--offline', '--database', 'postgres://x', '-f', 'templates/saas/citus-migrate.yaml'])).code,
    ).toBe(64);
    const r = await cli(['plan', '--frobnicate']);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain("error: unknown option '--frobnicate'");
    expect((await cli(['plan', '--offline', '--format', 'yaml'])).code).toBe(64);
    // Alone it would do nothing: a drift check written without --detailed-exitcode must not pass silently.
    const alone = await cli(['plan', '--offline', '-f', 'templates/saas/citus-migrate.yaml', '--include-unmanaged']);
    expect(alone.code).toBe(64);
    expect(alone.stderr).toContain('--include-unmanaged changes what --detailed-exitcode counts as pending');
  });

  it('the SQL plan carries the warnings the text plan shows', async () => {
    const dir = project({
      'citus-migrate.yaml':
        'version: 1\ntables:\n  t: { distributed_by: id, columns: { id: { type: int, not_null: true } } }\nroutines:\n  f: { file: f.sql, distributed_by: $1, colocate_with: t }\n',
      'f.sql': 'CREATE FUNCTION f(a int) RETURNS int LANGUAGE sql AS $$ SELECT a $$;\n',
    });
    const text = await cli(['plan', '--offline', '-f', join(dir, 'citus-migrate.yaml')]);
    const warning = text.stdout.split('Warnings:\n')[1]?.split('\n')[0]?.trim();
    expect(warning).toBeTruthy();
    const sql = await cli(['plan', '--offline', '-f', join(dir, 'citus-migrate.yaml'), '--format', 'sql']);
    expect(sql.stdout).toContain(`-- ${warning}`);
  });
});

describe('hammerdb and init', () => {
  it('hammerdb writes SQL by default and validates its flags', async () => {
    const r = await cli(['hammerdb', '--variant', 'functions', '--shard-count', '16']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "SELECT pg_catalog.create_distributed_function('public.neword(integer, integer, integer, integer, integer, integer)'::pg_catalog.regprocedure, '$1'::pg_catalog.text, colocate_with => 'public.warehouse'::pg_catalog.text, force_delegation => false::pg_catalog.bool);",
    );
    expect((await cli(['hammerdb', '--shard-count', '0'])).code).toBe(64);
    expect((await cli(['hammerdb', '--variant', 'tables'])).code).toBe(64);
  });

  it('init writes a valid starter project and never overwrites', async () => {
    const dir = project({});
    expect((await cli(['init', '--template', 'pgbench', 'proj'], { cwd: dir })).code).toBe(0);
    expect(existsSync(join(dir, 'proj/routines/pgbench_tpcb.sql'))).toBe(true);
    expect((await cli(['validate', '-f', 'proj/citus-migrate.yaml'], { cwd: dir })).code).toBe(0);
    const again = await cli(['init', '--template', 'pgbench', 'proj'], { cwd: dir });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('not overwriting existing file(s)');
  });

  it('init writes a .gitignore naming .citus-migrate/ where there is none, and suggests the line where one lacks it', async () => {
    const dir = project({});
    const r = await cli(['init', '--template', 'pgbench', 'a'], { cwd: dir });
    expect(r.stderr).toContain('created a/.gitignore (.citus-migrate/)');
    expect(readFileSync(join(dir, 'a/.gitignore'), 'utf8')).toContain('\n.citus-migrate/\n');
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'b/.gitignore'), 'node_modules/\n');
    const b = await cli(['init', '--template', 'pgbench', 'b'], { cwd: dir });
    expect(b.stderr).toContain('add .citus-migrate/ to b/.gitignore: cluster up keeps its throwaway cluster there');
    expect(readFileSync(join(dir, 'b/.gitignore'), 'utf8')).toBe('node_modules/\n');
  });

  it('init --force with another template names the files the earlier template left, and deletes none', async () => {
    const dir = project({});
    expect((await cli(['init', '--template', 'saas', 'p'], { cwd: dir })).code).toBe(0);
    writeFileSync(join(dir, 'p/routines/ad_clicks.sql'), '-- my edit\n');
    const r = await cli(['init', '--force', '--template', 'pgbench', 'p'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('left '))).toEqual([
      'left p/routines/ad_clicks.sql: a file of template saas, not of pgbench; init deletes nothing (edited since: yours to keep or remove)',
      'left p/routines/record_click.sql: a file of template saas, not of pgbench; init deletes nothing (unchanged from the template: remove it if the new project does not use it)',
    ]);
    expect(readFileSync(join(dir, 'p/routines/ad_clicks.sql'), 'utf8')).toBe('-- my edit\n');
    expect(existsSync(join(dir, 'p/routines/record_click.sql'))).toBe(true);
    expect(existsSync(join(dir, 'p/routines/pgbench_tpcb.sql'))).toBe(true);
  });

  it('init outside the repository: $schema points into the installed package, the hint runs from the cwd', async () => {
    const dir = project({});
    const r = await cli(['init', '--template', 'saas', 'my app'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').slice(-2)).toEqual([
      "next: npx citus-migrate validate -f 'my app/citus-migrate.yaml'",
      '',
    ]);
    const text = readFileSync(join(dir, 'my app/citus-migrate.yaml'), 'utf8');
    expect(text.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=node_modules/citus-migrate/schema/manifest-v1.schema.json',
    );
    expect(text.split('\n').slice(1)).toEqual(
      readFileSync('templates/saas/citus-migrate.yaml', 'utf8').split('\n').slice(1),
    );

    // With the package installed in the project, the path is relative to the manifest's folder.
    const schema = join(dir, 'node_modules/citus-migrate/schema');
    mkdirSync(schema, { recursive: true });
    writeFileSync(join(schema, 'manifest-v1.schema.json'), '{}');
    const here = await cli(['init', '--template', 'pgbench'], { cwd: join(dir, 'my app', 'routines') });
    expect(here.stderr.split('\n').slice(-2)).toEqual(['next: npx citus-migrate validate', '']);
    expect(readFileSync(join(dir, 'my app/routines/citus-migrate.yaml'), 'utf8').split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../../node_modules/citus-migrate/schema/manifest-v1.schema.json',
    );
  });

  it('--help and --version exit 0; version prints it too; no arguments at all is a usage error', async () => {
    expect((await cli(['--help'])).code).toBe(0);
    expect((await cli(['--version'])).stdout).toBe('0.1.0\n');
    expect(await cli(['version'])).toMatchObject({ code: 0, stdout: '0.1.0\n' });
    const none = await cli([]);
    expect(none.code).toBe(64);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('Usage: citus-migrate');
  });
});

describe('limits', () => {
  it('refuses a manifest over 4 MiB before parsing it', async () => {
    const dir = project({ 'citus-migrate.yaml': `version: 1\n# ${'x'.repeat(5 * 1024 * 1024)}\n` });
    const r = await cli(['validate'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: citus-migrate.yaml: is 5242894 bytes; a manifest may be at most 4194304 bytes\nmanifest is invalid: 1 problem\n',
    );
  });

  it('reports an empty manifest', async () => {
    const r = await cli(['validate'], { cwd: project({ 'citus-migrate.yaml': '' }) });
    expect(r.stderr).toContain('the manifest is empty; expected at least "version: 1"');
  });
});

describe('hammerdb --manifest', () => {
  it('writes the layout as a valid manifest with a TPC-C mix over the given warehouses', async () => {
    const dir = project({});
    const r = await cli(
      ['hammerdb', '--manifest', '--variant', 'functions', '--warehouses', '40', '-o', 'citus-migrate.yaml'],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    const text = readFileSync(join(dir, 'citus-migrate.yaml'), 'utf8');
    expect(text).toContain('sql: "SELECT neword($1, $2, $3, $4, $5, 0)"');
    expect(text).toContain(
      'params: [ { int: [ 1, 40 ] }, { const: 40 }, { int: [ 1, 10 ] }, { nurand: [ 1023, 1, 3000 ] }, { int: [ 5, 15 ] } ]',
    );
    expect((await cli(['validate'], { cwd: dir })).code).toBe(0);
  });
});
