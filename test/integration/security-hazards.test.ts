// A lower role against the tool's rights, on a real PostgreSQL: what it owns and the plan drops and
// creates again is given back to it (not left to the superuser that applies), and steps that
// widen access or would run its code with the applier's rights are refused (exit 4, nothing run)
// unless their hazard is allowed by name.
import { describe, expect, it } from 'vitest';
import { quoteIdent } from '../../src/sql/quote.js';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { hostileRole, type Hostile } from '../support/hostile.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

/** A schema `app` the lower role may use and create in, and a table it may read. */
async function setting(): Promise<{ db: TestDb; low: Hostile; r: string }> {
  const db = await freshDatabase(plainServers(), 'sh');
  const low = await hostileRole(plainServers(), db);
  const r = quoteIdent(low.role);
  await db.query(
    `CREATE SCHEMA app; GRANT USAGE, CREATE ON SCHEMA app TO ${r};
     CREATE TABLE app.t (id bigint PRIMARY KEY, x integer); INSERT INTO app.t VALUES (1, 1), (2, 2);
     GRANT SELECT ON app.t TO ${r}`,
  );
  return { db, low, r };
}

const ownerOf = async (db: TestDb, what: string): Promise<string> =>
  (await db.query<{ o: string }>(`SELECT ${what} AS o`))[0]!.o;

describe('objects the plan creates again keep their owner', () => {
  it('a view the lower role owns, dropped and created again around a column type change, is still its own', async () => {
    const { db, low, r } = await setting();
    await low.run('CREATE VIEW app.v AS SELECT id, x FROM app.t');
    await low.run(`CREATE FUNCTION app.f() RETURNS integer LANGUAGE plpgsql AS $$${low.trapBody('1')}$$`);
    const dir = projectDir({
      'citus-migrate.yaml': `version: 1
tables:
  app.t: { local: true, columns: { id: { type: bigint, not_null: true }, x: bigint }, primary_key: [id] }
routines:
  app.f: { file: routines/f.sql, local: true }
sql: [views.sql]
`,
      // Its result type changes: dropped and created again.
      'routines/f.sql': 'CREATE FUNCTION app.f() RETURNS bigint LANGUAGE sql AS $$SELECT 2::bigint$$;\n',
      'views.sql': `CREATE VIEW app.v AS SELECT id, x FROM app.t;\nGRANT SELECT ON app.t TO ${r};\n`,
    });
    const plan = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(plan.stdout).toContain(`create again view app.v (owner ${low.role} kept)`);
    expect(plan.stdout).toContain(`create function app.f() (owner ${low.role} kept)`);
    const apply = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir });
    expect(apply.stderr).not.toContain('error');
    expect(apply.code).toBe(0);
    expect(await ownerOf(db, "(SELECT relowner::regrole::text FROM pg_class WHERE oid = 'app.v'::regclass)")).toBe(r);
    expect(await ownerOf(db, "(SELECT proowner::regrole::text FROM pg_proc WHERE oid = 'app.f'::regproc)")).toBe(r);
    expect(await low.breaches()).toEqual([]);
  });

  it('a materialized view it owns, created again, holds only the rows its owner may read', async () => {
    const { db, low, r } = await setting();
    // Row-level security lets the lower role see the rows with x > 1 only; a superuser sees all.
    await db.query(`ALTER TABLE app.t ENABLE ROW LEVEL SECURITY; CREATE POLICY part ON app.t USING (x > 1);`);
    await low.run('CREATE MATERIALIZED VIEW app.mv AS SELECT id FROM app.t');
    const dir = projectDir({
      'citus-migrate.yaml': `version: 1
tables:
  app.t: { local: true, columns: { id: { type: bigint, not_null: true }, x: integer }, primary_key: [id] }
sql: [objects.sql]
`,
      'objects.sql': `ALTER TABLE app.t ENABLE ROW LEVEL SECURITY;
CREATE POLICY part ON app.t USING (x > 1);
GRANT SELECT ON app.t TO ${r};
CREATE MATERIALIZED VIEW app.mv AS SELECT id, x FROM app.t;
`,
    });
    const apply = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir });
    expect(apply.stderr).toContain(`create again materialized view app.mv (owner ${low.role} kept)`);
    expect(apply.code).toBe(0);
    expect(await ownerOf(db, "(SELECT relowner::regrole::text FROM pg_class WHERE oid = 'app.mv'::regclass)")).toBe(r);
    expect(await db.query('SELECT id, x FROM app.mv')).toEqual([{ id: '2', x: 2 }]);
  });
});

/** The plan's text and a refused apply (no --allow-hazards but `allow`). */
async function refused(db: TestDb, dir: string, allow?: string) {
  const plan = await cli(['plan', '--database', db.url], { cwd: dir });
  const apply = await cli(
    ['apply', '--database', db.url, '--auto-approve', ...(allow ? ['--allow-hazards', allow] : [])],
    {
      cwd: dir,
    },
  );
  return { plan: plan.stdout, code: apply.code, stderr: apply.stderr };
}

describe('widens_access', () => {
  it('a permissive policy, a wider grant, RLS no longer forced, a view losing security_invoker and a LEAKPROOF function are refused until allowed', async () => {
    const { db, r } = await setting();
    await db.query(
      `ALTER TABLE app.t ENABLE ROW LEVEL SECURITY; ALTER TABLE app.t FORCE ROW LEVEL SECURITY;
       CREATE VIEW app.v WITH (security_invoker = true) AS SELECT id FROM app.t;
       CREATE FUNCTION app.pos(a integer) RETURNS boolean LANGUAGE sql AS $$SELECT a > 0$$`,
    );
    const dir = projectDir({
      'citus-migrate.yaml': `version: 1
tables:
  app.t: { local: true, columns: { id: { type: bigint, not_null: true }, x: integer }, primary_key: [id] }
routines:
  app.pos: { file: pos.sql, local: true }
sql: [objects.sql]
`,
      'pos.sql': 'CREATE FUNCTION app.pos(a integer) RETURNS boolean LANGUAGE sql LEAKPROOF AS $$SELECT a > 0$$;\n',
      'objects.sql': `ALTER TABLE app.t ENABLE ROW LEVEL SECURITY;
CREATE POLICY everyone ON app.t FOR SELECT USING (true);
CREATE VIEW app.v AS SELECT id FROM app.t;
GRANT SELECT, UPDATE ON app.t TO ${r};
`,
    });
    const before = await catalog(db);
    const out = await refused(db, dir, 'weakens_security');
    for (const text of [
      'widens access: policy everyone on app.t is permissive (USING (true))',
      `widens access: ${r} gains UPDATE`,
      'widens access: row level security no longer forced on app.t (its owner bypasses it)',
      'widens access: view app.v loses security_invoker',
      'widens access: function app.pos(integer) is LEAKPROOF',
    ]) {
      expect(out.plan).toContain(text);
      expect(out.stderr).toContain(text);
    }
    expect(out.code).toBe(4);
    expect(out.stderr).toContain('refusing to apply');
    expect(out.stderr).toContain('allow them with --allow-hazards widens_access');
    expect(await catalog(db)).toBe(before);
    const allowed = await cli(
      ['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'weakens_security,widens_access'],
      { cwd: dir },
    );
    expect(allowed.code).toBe(0);
  });
});

/** What the tests look at: policies, RLS flags, grants, views' options, LEAKPROOF, columns, event triggers. */
const catalog = async (db: TestDb): Promise<string> =>
  JSON.stringify(
    await db.query(`SELECT
      (SELECT json_agg(polname ORDER BY polname) FROM pg_policy) AS policies,
      (SELECT json_agg(json_build_array(relname, relrowsecurity, relforcerowsecurity, relacl, reloptions) ORDER BY relname)
         FROM pg_class WHERE relnamespace = 'app'::regnamespace) AS rels,
      (SELECT json_agg(json_build_array(proname, proleakproof) ORDER BY proname) FROM pg_proc WHERE pronamespace = 'app'::regnamespace) AS procs,
      (SELECT json_agg(json_build_array(attrelid::regclass::text, attname, atttypid::regtype::text) ORDER BY attrelid, attnum)
         FROM pg_attribute WHERE attrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'app'::regnamespace) AND attnum > 0) AS cols`),
  );

describe('runs_foreign_code', () => {
  /** The lower role's function app.code(integer), a trap when a superuser runs it. */
  async function trapped() {
    const s = await setting();
    await s.low.run(
      `CREATE FUNCTION app.code(a integer) RETURNS integer LANGUAGE plpgsql AS $$${s.low.trapBody('a')}$$`,
    );
    return s;
  }
  const manifest = (columns: string, sql = '') => `version: 1
tables:
  app.t: { local: true, columns: { id: { type: bigint, not_null: true }, ${columns} }, primary_key: [id] }
${sql}`;

  it.each([
    [
      'a new column whose default calls it',
      'x: integer, y: { type: integer, default: "app.code(1)" }',
      "add column y integer DEFAULT app.code(1) to app.t (rewrites it: its default calls app.code(), which is volatile: computed for every row); runs {role}'s code: the default of app.t.y calls app.code(integer)",
    ],
    [
      'a type change whose USING calls it',
      'x: { type: bigint, using: "app.code(x)::bigint" }',
      "runs {role}'s code: the USING of app.t.x calls app.code(integer)",
    ],
  ])('%s: refused, nothing run, the trap never ran', async (_name, columns, text) => {
    const { db, low } = await trapped();
    const dir = projectDir(manifest(columns));
    const before = await catalog(db);
    const out = await refused(db, dir, 'rewrites_table,drops_data');
    const shown = text.replace('{role}', low.role);
    expect(out.plan).toContain(shown);
    expect(out.plan).toMatch(/\[(.*, )?runs_foreign_code\]/);
    expect(out.code).toBe(4);
    expect(out.stderr).toContain(`runs_foreign_code: step 1 (`);
    expect(out.stderr).toContain(shown);
    expect(await catalog(db)).toBe(before);
    expect(await low.breaches()).toEqual([]);
  });

  it('a CHECK created in the sql: files that calls it is evaluated over every row: refused', async () => {
    const { db, low } = await trapped();
    const dir = projectDir({
      'citus-migrate.yaml': manifest('x: integer', 'sql: [checks.sql]\n'),
      'checks.sql': 'ALTER TABLE app.t ADD CONSTRAINT x_code CHECK (app.code(x) > 0);\n',
    });
    const out = await refused(db, dir);
    expect(out.plan).toContain(
      `create check constraint app.t.x_code; runs ${low.role}'s code: check constraint app.t.x_code calls app.code(integer)  [runs_foreign_code]`,
    );
    expect(out.code).toBe(4);
    expect(await low.breaches()).toEqual([]);
  });

  it('an event trigger whose function it owns fires on every DDL statement: every step carries the hazard', async () => {
    const { db, low } = await trapped();
    await low.run(`CREATE FUNCTION app.on_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$${low.trapBody('')}$$`);
    // An event trigger only a superuser creates, on a function the lower role owns (and may replace).
    await db.query('CREATE EVENT TRIGGER cm_audit ON ddl_command_start EXECUTE FUNCTION app.on_ddl()');
    try {
      const dir = projectDir(manifest('x: integer, z: text'));
      const before = await catalog(db);
      const out = await refused(db, dir);
      expect(out.plan).toContain(
        `add column z text to app.t; runs ${low.role}'s code: event trigger cm_audit calls app.on_ddl() on every DDL statement  [runs_foreign_code]`,
      );
      expect(out.code).toBe(4);
      expect(await catalog(db)).toBe(before);
      expect(await low.breaches()).toEqual([]);
    } finally {
      await db.query('DROP EVENT TRIGGER cm_audit');
    }
  });
});
