// Objects defined by SQL (views, types, indexes, constraints, triggers, policies, comments,
// extensions) on a real PostgreSQL: introspect writes them, applying that to an empty database
// reproduces the schema (pg_dump equal), a hand-written project converges with an empty
// re-plan, drift is planned, and what cannot be changed is a located problem.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { schemaDump } from '../support/dump.js';
import { cli } from '../support/run-cli.js';

const SCHEMA = `
CREATE SCHEMA app;
CREATE EXTENSION citext;
CREATE TYPE app.mood AS ENUM ('sad', 'ok', 'happy');
CREATE DOMAIN app.posint AS integer CHECK (VALUE > 0);
CREATE TYPE app.pair AS (a integer, b text);
CREATE TABLE app.t (id bigint PRIMARY KEY, name text, price numeric, m app.mood, email citext, n app.posint);
ALTER TABLE app.t ADD CONSTRAINT price_pos CHECK (price > 0);
CREATE INDEX t_lower ON app.t (lower(name)) WHERE price > 10;
CREATE INDEX t_desc ON app.t (price DESC NULLS LAST) INCLUDE (name);
CREATE VIEW app.v AS SELECT id, name FROM app.t WHERE price > 5;
CREATE VIEW app.v2 AS SELECT * FROM app.v;
CREATE MATERIALIZED VIEW app.mv AS SELECT count(*) AS n FROM app.t;
CREATE INDEX mv_n ON app.mv (n);
CREATE FUNCTION app.trg() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER t_trg BEFORE INSERT ON app.t FOR EACH ROW EXECUTE FUNCTION app.trg();
CREATE TRIGGER t_off AFTER UPDATE OF price ON app.t FOR EACH ROW WHEN (OLD.price IS DISTINCT FROM NEW.price) EXECUTE FUNCTION app.trg();
ALTER TABLE app.t DISABLE TRIGGER t_off;
ALTER TABLE app.t ENABLE ROW LEVEL SECURITY;
ALTER TABLE app.t FORCE ROW LEVEL SECURITY;
CREATE POLICY p_all ON app.t AS RESTRICTIVE FOR SELECT USING (price > 0);
COMMENT ON TABLE app.t IS 'things';
COMMENT ON COLUMN app.t.name IS 'the name';
COMMENT ON VIEW app.v IS 'a view';
COMMENT ON FUNCTION app.trg() IS 'touches';
COMMENT ON TYPE app.mood IS 'how it feels';
`;

// Column order counts here: introspect → apply must give the very same dump.
const dump = (db: TestDb): string => schemaDump(db, { exact: true });

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cm-sqlobj-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

async function planJson(
  dir: string,
  db: TestDb,
): Promise<{
  transaction: { steps: { summary: string }[] };
  problems: { object: string; message: string }[];
  unmanaged: string[];
}> {
  const r = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
  return JSON.parse(r.stdout);
}

// What these schemas create (an extension, policies, grants to PUBLIC): allowed by name at apply.
const SECURITY = 'creates_extension,public_privileges,security_definer';

describe('objects defined by SQL', () => {
  it('introspect --out writes them; applying that to an empty database gives the same pg_dump, and both re-plans are empty', async () => {
    const src = await freshDatabase(plainServers(), 'so_src');
    expect(src.psql({ input: SCHEMA }).stderr).not.toContain('ERROR');
    const dir = mkdtempSync(join(tmpdir(), 'cm-sqlobj-'));
    const intro = await cli(['introspect', '--database', src.url, '--out', join(dir, 'citus-migrate.yaml')]);
    expect(intro.code).toBe(0);
    expect(readdirSync(join(dir, 'sql')).sort()).toEqual([
      'comments.sql',
      'constraints.sql',
      'extensions.sql',
      'indexes.sql',
      'policies.sql',
      'triggers.sql',
      'types.sql',
      'views.sql',
    ]);
    expect(readdirSync(join(dir, 'routines'))).toEqual(['app.trg.sql']);
    expect((await planJson(dir, src)).transaction.steps).toEqual([]);

    const dst = await freshDatabase(plainServers(), 'so_dst');
    const apply = await cli(['apply', '--database', dst.url, '--auto-approve', '--allow-hazards', SECURITY], {
      cwd: dir,
    });
    expect(apply.stdout).toContain('verified: planning again is empty');
    expect(apply.code).toBe(0);
    expect(dump(dst)).toBe(dump(src));
    const again = await planJson(dir, dst);
    expect(again.transaction.steps).toEqual([]);
    expect(again.unmanaged).toEqual([]);
  });

  it('a hand-written project converges on an older schema: dependents are dropped and created again around a column type change', async () => {
    const db = await freshDatabase(plainServers(), 'so_hw');
    expect(
      db.psql({
        input: `
      CREATE SCHEMA app;
      CREATE TYPE app.mood AS ENUM ('sad', 'happy');
      CREATE TABLE app.t (id bigint PRIMARY KEY, name varchar(20), price integer, m app.mood);
      CREATE VIEW app.v AS SELECT id, name FROM app.t;
      CREATE VIEW app.v2 AS SELECT id FROM app.v;
      CREATE VIEW app.stray AS SELECT price FROM app.t;
      ALTER TABLE app.t ADD CONSTRAINT price_pos CHECK (price > 0);
      CREATE FUNCTION app.trg() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
      CREATE TRIGGER t_trg BEFORE INSERT ON app.t FOR EACH ROW EXECUTE FUNCTION app.trg();
      COMMENT ON VIEW app.v IS 'things';
    `,
      }).stderr,
    ).not.toContain('ERROR');
    const dir = project({
      'citus-migrate.yaml': `version: 1
tables:
  app.t:
    columns: { id: { type: bigint, not_null: true }, name: text, price: numeric, m: app.mood }
    primary_key: [id]
routines:
  app.trg: { file: routines/trg.sql, local: true }
sql: [sql]
prune: true
`,
      'routines/trg.sql':
        'CREATE FUNCTION app.trg() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;\n',
      'sql/objects.sql': `CREATE TYPE app.mood AS ENUM ('sad', 'ok', 'happy');
ALTER TYPE app.mood ADD VALUE 'meh' BEFORE 'ok';
CREATE VIEW app.v AS SELECT id, name, price FROM app.t WHERE price > 5;
CREATE VIEW app.v2 AS SELECT id FROM app.v;
ALTER TABLE app.t ADD CONSTRAINT price_pos CHECK (price >= 0);
CREATE TRIGGER t_trg BEFORE INSERT ON app.t FOR EACH ROW EXECUTE FUNCTION app.trg();
ALTER TABLE app.t DISABLE TRIGGER t_trg;
COMMENT ON VIEW app.v IS 'priced things';
CREATE INDEX t_name ON app.t (lower(name));
`,
    });
    const plan = await planJson(dir, db);
    expect(plan.problems).toEqual([]);
    expect(plan.transaction.steps.map((s) => s.summary)).toEqual([
      'drop view app.stray (prune: it depends on what this plan changes)',
      'drop comment on view app.v (to create it again)',
      'drop trigger app.t.t_trg (to create it again)',
      'drop check constraint app.t.price_pos (to create it again)',
      'drop view app.v2 (to create it again)',
      'drop view app.v (to create it again)',
      'add value meh enum app.mood',
      'add value ok enum app.mood',
      'change app.t.name from character varying(20) to text',
      'change app.t.price from integer to numeric',
      'create index app.t_name',
      'create again view app.v',
      'create again comment on view app.v',
      'create again view app.v2',
      'create again check constraint app.t.price_pos',
      'create again trigger app.t.t_trg',
    ]);
    const apply = await cli(
      [
        'apply',
        '--database',
        db.url,
        '--auto-approve',
        '--allow-hazards',
        'rewrites_table,drops_data,weakens_security',
      ],
      {
        cwd: dir,
      },
    );
    expect(apply.stdout).toContain('verified: planning again is empty');
    // The views are written by hand: PostgreSQL prints them back differently, and what they
    // became was recorded, so the next plan is empty too.
    expect((await planJson(dir, db)).transaction.steps).toEqual([]);
    expect(
      (
        await db.query<{ labels: string }>(
          "SELECT string_agg(enumlabel, ',' ORDER BY enumsortorder) AS labels FROM pg_enum WHERE enumtypid = 'app.mood'::regtype",
        )
      )[0]!.labels,
    ).toBe('sad,meh,ok,happy');
    expect((await db.query<{ e: string }>("SELECT tgenabled AS e FROM pg_trigger WHERE tgname = 't_trg'"))[0]!.e).toBe(
      'D',
    );

    // Drift: a view changed by hand is planned back.
    await db.query('CREATE OR REPLACE VIEW app.v2 AS SELECT id FROM app.v WHERE id > 0');
    expect((await planJson(dir, db)).transaction.steps.map((s) => s.summary)).toEqual([
      'drop view app.v2 (to create it again)',
      'create again view app.v2',
    ]);
  });

  it('a role whose search_path is "app, public" reads the same definitions: names stay qualified', async () => {
    const src = await freshDatabase(plainServers(), 'so_path');
    expect(
      src.psql({
        input: `CREATE SCHEMA app; CREATE TABLE app.t (id int PRIMARY KEY); CREATE TABLE public.t (id int PRIMARY KEY);
      CREATE VIEW app.v AS SELECT id FROM app.t; CREATE VIEW public.v AS SELECT id FROM public.t;
      ALTER DATABASE ${src.name} SET search_path = app, public;`,
      }).stderr,
    ).not.toContain('ERROR');
    const dir = mkdtempSync(join(tmpdir(), 'cm-sqlobj-'));
    expect((await cli(['introspect', '--database', src.url, '--out', join(dir, 'citus-migrate.yaml')])).code).toBe(0);
    const views = readFileSync(join(dir, 'sql', 'views.sql'), 'utf8');
    expect(views).toContain('FROM app.t');
    expect((await planJson(dir, src)).transaction.steps).toEqual([]);
    const dst = await freshDatabase(plainServers(), 'so_path2');
    await dst.query(`ALTER DATABASE ${dst.name} SET search_path = app, public`);
    const apply = await cli(['apply', '--database', dst.url, '--auto-approve', '--allow-hazards', SECURITY], {
      cwd: dir,
    });
    expect(apply.stdout).toContain('verified: planning again is empty');
    expect(dump(dst)).toBe(dump(src));
  });

  it('a role that may not read what an apply recorded still plans, with a warning that says which GRANT it needs; history says which GRANT', async () => {
    const db = await freshDatabase(plainServers(), 'so_reader');
    const dir = mkdtempSync(join(tmpdir(), 'cm-sqlobj-'));
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      'version: 1\ntables:\n  t: { columns: { id: bigint }, primary_key: [id] }\nsql: [views.sql]\n',
    );
    // PostgreSQL prints this view back as "SELECT t.id FROM t": only the record says it is unchanged.
    writeFileSync(join(dir, 'views.sql'), 'CREATE VIEW v AS SELECT id FROM t;\n');
    expect(
      (await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', SECURITY], { cwd: dir })).code,
    ).toBe(0);
    await db.query(`DO $$BEGIN CREATE ROLE cm_planner LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END$$`);
    const url = new URL(db.url);
    url.username = 'cm_planner';
    url.password = '';
    const plan = async () => {
      const r = await cli(['plan', '--database', url.toString(), '--format', 'json'], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { transaction: { steps: { summary: string }[] }; warnings: { code: string }[] };
    };
    const history = await cli(['history', '--database', url.toString()], { cwd: dir });
    expect(history.code).toBe(1);
    expect(history.stderr).toContain('this role may not read the apply history: GRANT USAGE ON SCHEMA citus_migrate');
    const denied = await plan();
    expect(denied.warnings.map((w) => w.code)).toEqual(['object_state_unreadable']);
    // Read by cm_planner, the view is another role's (the superuser that applied): given back to it.
    expect(denied.transaction.steps.map((s) => s.summary)).toEqual([
      'drop view public.v (to create it again)',
      `create again view public.v (owner ${plainServers().user} kept)`,
    ]);
    await db.query(
      'GRANT USAGE ON SCHEMA citus_migrate TO cm_planner; GRANT SELECT ON citus_migrate.object_state TO cm_planner',
    );
    const granted = await plan();
    expect(granted.warnings).toEqual([]);
    expect(granted.transaction.steps).toEqual([]);
  });

  it('what PostgreSQL cannot change is a problem, and statements that declare nothing are refused where they are', async () => {
    const db = await freshDatabase(plainServers(), 'so_bad');
    expect(
      db.psql({
        input:
          "CREATE TYPE mood AS ENUM ('a', 'b', 'c'); CREATE DOMAIN d AS int CHECK (VALUE > 0); CREATE TABLE t (x d);",
      }).stderr,
    ).not.toContain('ERROR');
    const dir = project({
      'citus-migrate.yaml': 'version: 1\ntables:\n  t: { local: true, columns: { x: d } }\nsql: [types.sql]\n',
      'types.sql': "CREATE TYPE mood AS ENUM ('a', 'c');\nCREATE DOMAIN d AS int CHECK (VALUE > 1);\n",
    });
    const plan = await planJson(dir, db);
    expect(plan.problems.map((p) => `${p.object}: ${p.message}`)).toEqual([
      'enum public.mood: drops label "b": PostgreSQL cannot remove a value from an enum (create a new type and move the columns to it)',
      'domain public.d: differs, and table public.t uses it: changing it in place (ALTER DOMAIN / ALTER TYPE) is not planned; change it by hand or through a new type',
    ]);
    const r = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(r.code).toBe(1);

    writeFileSync(
      join(dir, 'types.sql'),
      "CREATE TYPE mood AS ENUM ('a', 'b', 'c');\n\n  INSERT INTO t VALUES (1);\nCREATE INDEX ON t (x);\n",
    );
    const v = await cli(['validate'], { cwd: dir });
    expect(v.code).toBe(1);
    expect(v.stderr).toContain(
      'types.sql:3:3: INSERT is refused: it changes rows; a sql: file holds declarations only, and the plan would not run it',
    );
    expect(v.stderr).toContain('types.sql:4:1: an index needs a name here, so later plans can find it');
  });
});
