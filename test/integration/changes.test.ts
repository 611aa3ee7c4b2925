// Changes to what already exists, on a real PostgreSQL: a routine whose argument list changes
// replaces the old signature (its grants follow), and plans that PostgreSQL would refuse are
// plan problems, never failed applies.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { catalogSnapshot, freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { cli } from '../support/run-cli.js';
import { projectDir } from '../support/project.js';

const project = (files: Record<string, string>): string => projectDir(files, 'cm-changes-');

describe('changes to what exists (plain PostgreSQL)', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'changes');
  });

  it('a routine given another argument replaces the old signature, and its grants follow it', async () => {
    const role = `cm_app_${db.name.slice(-6)}`;
    await db.query(`CREATE ROLE ${role} LOGIN`);
    const manifest = 'version: 1\nroutines:\n  transfer: { file: routines/transfer.sql, local: true }\n';
    const cwd = project({
      'citus-migrate.yaml': manifest,
      'routines/transfer.sql':
        "CREATE PROCEDURE transfer(a integer) LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE 'one %', a; END $$;\n",
    });
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd })).code).toBe(0);
    // Granted outside the manifest, as an application's role usually is.
    await db.query(`GRANT EXECUTE ON PROCEDURE transfer(integer) TO ${role}`);
    await db.query('REVOKE EXECUTE ON PROCEDURE transfer(integer) FROM PUBLIC');
    writeFileSync(
      join(cwd, 'routines/transfer.sql'),
      "CREATE PROCEDURE transfer(a integer, b text DEFAULT NULL) LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE 'two %', a; END $$;\n",
    );
    const plan = await cli(['plan', '--database', db.url], { cwd });
    expect(plan.stdout).toContain(
      '1. drop procedure public.transfer(integer): the manifest declares it with another argument list (its grants move to the new one)  [breaks_cached_plans]',
    );
    expect(plan.stdout).toContain('2. create procedure public.transfer(integer, text)');
    expect(plan.stdout).toContain(`create privileges procedure public.transfer(integer, text) to ${role}`);
    expect(plan.stdout).toContain('create privileges procedure public.transfer(integer, text) revoked from PUBLIC');
    expect(plan.stdout).not.toContain('Unmanaged');
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd })).code).toBe(4);
    const r = await cli(
      ['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'breaks_cached_plans,public_privileges'],
      {
        cwd,
      },
    );
    expect(r.code).toBe(0);
    expect(await db.query(`SELECT oid::regprocedure::text AS sig FROM pg_proc WHERE proname = 'transfer'`)).toEqual([
      { sig: 'transfer(integer,text)' },
    ]);
    // One procedure: a call with one argument is no longer ambiguous; the role kept EXECUTE, PUBLIC did not get it back.
    expect(
      await db.query(
        `SELECT has_function_privilege('${role}', 'transfer(integer,text)', 'EXECUTE') AS app, has_function_privilege('public', 'transfer(integer,text)', 'EXECUTE') AS pub`,
      ),
    ).toEqual([{ app: true, pub: false }]);
    expect(db.psql({ input: 'CALL transfer(1);' }).status).toBe(0);
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd });
    expect(again.code).toBe(0);
  });

  it('two undeclared overloads of the name: none is guessed to be the old one', async () => {
    await db.query('CREATE FUNCTION f(a integer) RETURNS int LANGUAGE sql AS $$ SELECT a $$');
    await db.query('CREATE FUNCTION f(a text) RETURNS int LANGUAGE sql AS $$ SELECT 1 $$');
    const cwd = project({
      'citus-migrate.yaml': 'version: 1\nroutines:\n  f: { file: f.sql, local: true }\n',
      'f.sql': 'CREATE FUNCTION f(a bigint) RETURNS int LANGUAGE sql AS $$ SELECT 2 $$;\n',
    });
    const before = await catalogSnapshot(db);
    const plan = await cli(['plan', '--database', db.url], { cwd });
    expect(plan.stdout).toContain('1 step in one transaction; no hazards');
    expect(plan.stdout).toContain('routine public.f(integer)');
    expect(plan.stdout).toContain('routine public.f(text)');
    expect(await catalogSnapshot(db)).toBe(before);
  });

  it('dropping a column rebuilds only the views and policies that read it', async () => {
    const table = (cols: string): string =>
      `version: 1\nprune: true\ntables:\n  t:\n    local: true\n    columns: { ${cols} }\n    primary_key: [a]\nsql: [objects.sql]\n`;
    const objects = (withC: boolean): string =>
      [
        'CREATE VIEW v_a AS SELECT a FROM t;',
        withC ? 'CREATE VIEW v_c AS SELECT a, c FROM t;' : '',
        'CREATE VIEW v_b AS SELECT b FROM t;',
        'ALTER TABLE t ENABLE ROW LEVEL SECURITY;',
        'CREATE POLICY p_b ON t USING (b > 0);',
        'CREATE POLICY p_all ON t USING (true);',
      ].join('\n');
    const cwd = project({
      'citus-migrate.yaml': table('a: { type: int, not_null: true }, b: int, c: text'),
      'objects.sql': objects(true),
    });
    const first = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd });
    expect(first.code).toBe(0);
    writeFileSync(join(cwd, 'citus-migrate.yaml'), table('a: { type: int, not_null: true }, b: int'));
    writeFileSync(join(cwd, 'objects.sql'), objects(false));
    const plan = await cli(['plan', '--database', db.url], { cwd });
    const steps = plan.stdout
      .split('\n')
      .filter((l) => /^ +\d+\. /.test(l))
      .map((l) => l.replace(/^ +\d+\. /, ''));
    expect(steps).toEqual([
      'drop view public.v_c (prune: it depends on what this plan changes)  [drops_data]',
      'drop column public.t.c (prune)  [drops_data]',
    ]);
    expect(plan.stdout).not.toContain('v_a');
    expect(plan.stdout).not.toContain('v_b');
    expect(plan.stdout).not.toContain('p_b');
    expect(plan.stdout).not.toContain('p_all');
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd });
    expect(r.code).toBe(0);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd })).code).toBe(0);
  });
  it('prune does not drop a sequence a kept default still draws from: a plan problem', async () => {
    await db.query("CREATE SEQUENCE ids; CREATE TABLE t (id bigint NOT NULL DEFAULT nextval('ids'), v int)");
    await db.query('CREATE SCHEMA app; CREATE SEQUENCE app."Odd ""Seq"""; CREATE SEQUENCE app.unused');
    await db.query(`CREATE TABLE app.u (id bigint DEFAULT nextval('app."Odd ""Seq"""'))`);
    const cwd = project({
      'citus-migrate.yaml': [
        'version: 1',
        'prune: true',
        'tables:',
        '  t:',
        '    local: true',
        `    columns: { id: { type: bigint, not_null: true, default: "nextval('ids'::regclass)" }, v: int }`,
        '  app.u: { local: true }',
        '',
      ].join('\n'),
    });
    const plan = await cli(['plan', '--database', db.url], { cwd });
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(
      'sequence public.ids: is not declared, so prune would drop it, but the default of public.t.id draws from it',
    );
    expect(plan.stdout).toContain(
      'sequence app."Odd ""Seq""": is not declared, so prune would drop it, but the default of app.u.id draws from it',
    );
    expect(plan.stdout).toContain('drop sequence app.unused (prune)');
  });
  it('a new NOT NULL column without a default on a table holding rows is a plan problem, not a failed apply', async () => {
    await db.query(
      'CREATE TABLE t (id int NOT NULL PRIMARY KEY); INSERT INTO t SELECT generate_series(1, 100); ANALYZE t',
    );
    const cwd = project({
      'citus-migrate.yaml':
        'version: 1\ntables:\n  t:\n    local: true\n    columns: { id: { type: int, not_null: true }, code: { type: text, not_null: true } }\n    primary_key: [id]\n',
    });
    const plan = await cli(['plan', '--database', db.url], { cwd });
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(
      "public.t.code: is a new NOT NULL column without a default, and the table holds rows (~100 by the planner's estimate)",
    );
    // With a default it is planned, and applies.
    writeFileSync(
      join(cwd, 'citus-migrate.yaml'),
      'version: 1\ntables:\n  t:\n    local: true\n    columns: { id: { type: int, not_null: true }, code: { type: text, not_null: true, default: "\'x\'" } }\n    primary_key: [id]\n',
    );
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd })).code).toBe(0);
  });
  it('a replaced routine body is shown as the lines it changes, in text and markdown', async () => {
    const cwd = project({
      'citus-migrate.yaml': 'version: 1\nroutines:\n  f: { file: f.sql, local: true }\n',
      'f.sql': 'CREATE FUNCTION f(a int) RETURNS int LANGUAGE plpgsql AS $$\nBEGIN\n  RETURN a + 1;\nEND $$;\n',
    });
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd })).code).toBe(0);
    writeFileSync(
      join(cwd, 'f.sql'),
      'CREATE FUNCTION f(a int) RETURNS int LANGUAGE plpgsql AS $$\nBEGIN\n  RETURN a + 2;\nEND $$;\n',
    );
    const plan = await cli(['plan', '--database', db.url], { cwd });
    expect(plan.stdout).toContain(
      '    1. replace the body of function public.f(integer)\n         BEGIN\n       -   RETURN a + 1;\n       +   RETURN a + 2;\n         END\n',
    );
    const md = await cli(['plan', '--database', db.url, '--format', 'markdown'], { cwd });
    expect(md.stdout).toContain('```diff\n  BEGIN\n-   RETURN a + 1;\n+   RETURN a + 2;\n  END\n```');
  });
  it('a table whose default and generated column call routines of the same plan: the routines are created first (was: apply failed)', async () => {
    const cwd = project({
      'citus-migrate.yaml': [
        'version: 1',
        'tables:',
        '  t:',
        '    local: true',
        '    columns:',
        '      id: { type: int, not_null: true, default: "next_id()" }',
        '      g: { type: int, generated: "twice(id)" }',
        '    primary_key: [id]',
        'routines:',
        '  next_id: { file: next_id.sql, local: true }',
        '  twice: { file: twice.sql, local: true }',
        '',
      ].join('\n'),
      // A SQL body that reads the table it is the default of (PostgreSQL checks SQL bodies at CREATE).
      'next_id.sql':
        'CREATE FUNCTION next_id() RETURNS int LANGUAGE sql AS $$ SELECT coalesce(max(id), 0) + 1 FROM t $$;\n',
      'twice.sql': 'CREATE FUNCTION twice(x int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT x * 2 $$;\n',
    });
    const plan = await cli(['plan', '--database', db.url, '--format', 'sql'], { cwd });
    expect(plan.stdout.indexOf('CREATE FUNCTION next_id()')).toBeLessThan(plan.stdout.indexOf('CREATE TABLE'));
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd });
    expect(r.stderr).not.toContain('does not exist');
    expect(r.code).toBe(0);
    expect(await db.query('INSERT INTO t DEFAULT VALUES RETURNING id, g')).toEqual([{ id: 1, g: 2 }]);
    // check_function_bodies is back on for what follows in the transaction.
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd })).code).toBe(0);
  });
});
