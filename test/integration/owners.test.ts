// Owners, managed (objects/owner-objects.ts): an object another role owns is introspected as
// `ALTER … OWNER TO role` in sql/owners.sql, applied elsewhere to the same owners (pg_dump with
// its owners equal), compared (a drift exits 2 and is given back), left alone and listed
// unmanaged when the files do not say (given back to the role that applies with prune), and an
// owner PostgreSQL would refuse is a plan problem at its file:line with nothing changed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers } from '../support/db.js';
import { schemaDump } from '../support/dump.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const plain = plainServers();

/** One object of every kind that has an owner, each given to `a` or `b`. */
const EVERY_KIND = (a: string, b: string): string => `
  CREATE SCHEMA app; ALTER SCHEMA app OWNER TO ${a};
  CREATE TABLE app.t (id int PRIMARY KEY, n int, v text); ALTER TABLE app.t OWNER TO ${a};
  CREATE TABLE app.s (id serial PRIMARY KEY); ALTER TABLE app.s OWNER TO ${b};
  CREATE TABLE app.p (id int, at date) PARTITION BY RANGE (at); ALTER TABLE app.p OWNER TO ${a};
  CREATE TABLE app.p_2026 PARTITION OF app.p FOR VALUES FROM ('2026-01-01') TO ('2027-01-01'); ALTER TABLE app.p_2026 OWNER TO ${b};
  CREATE VIEW app.v AS SELECT id FROM app.t; ALTER VIEW app.v OWNER TO ${b};
  CREATE MATERIALIZED VIEW app.m AS SELECT id FROM app.t; ALTER MATERIALIZED VIEW app.m OWNER TO ${a};
  CREATE SEQUENCE app.seq; ALTER SEQUENCE app.seq OWNER TO ${b};
  CREATE FUNCTION app.f(integer) RETURNS integer LANGUAGE sql AS 'SELECT $1'; ALTER FUNCTION app.f(integer) OWNER TO ${b};
  CREATE PROCEDURE app.pr() LANGUAGE sql AS 'SELECT 1'; ALTER PROCEDURE app.pr() OWNER TO ${a};
  CREATE AGGREGATE app.total(integer) (SFUNC = int4pl, STYPE = integer); ALTER AGGREGATE app.total(integer) OWNER TO ${b};
  CREATE TYPE app.e AS ENUM ('x', 'y'); ALTER TYPE app.e OWNER TO ${b};
  CREATE DOMAIN app.d AS integer CHECK (VALUE > 0); ALTER DOMAIN app.d OWNER TO ${a};
  CREATE TYPE app.c AS (x integer, y text); ALTER TYPE app.c OWNER TO ${b};
  CREATE TYPE app.r AS RANGE (subtype = integer); ALTER TYPE app.r OWNER TO ${a};
  CREATE FUNCTION app.eq(integer, integer) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT $1 = $2';
  CREATE OPERATOR app.=== (FUNCTION = app.eq, LEFTARG = integer, RIGHTARG = integer); ALTER OPERATOR app.=== (integer, integer) OWNER TO ${b};
  CREATE OPERATOR FAMILY app.fam USING btree; ALTER OPERATOR FAMILY app.fam USING btree OWNER TO ${a};
  CREATE COLLATION app.ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false); ALTER COLLATION app.ci OWNER TO ${b};
  CREATE TEXT SEARCH DICTIONARY app.simple_d (TEMPLATE = pg_catalog.simple); ALTER TEXT SEARCH DICTIONARY app.simple_d OWNER TO ${a};
  CREATE TEXT SEARCH CONFIGURATION app.cfg (COPY = pg_catalog.simple); ALTER TEXT SEARCH CONFIGURATION app.cfg OWNER TO ${b};
  CREATE STATISTICS app.st (dependencies) ON id, n FROM app.t; ALTER STATISTICS app.st OWNER TO ${a};
  CREATE PUBLICATION pub FOR TABLE app.t; ALTER PUBLICATION pub OWNER TO ${a};
`;

const plan = (db: { url: string }, dir: string, ...more: string[]) =>
  cli(['plan', '--database', db.url, '--detailed-exitcode', ...more], { cwd: dir });

describe('owners', () => {
  it('every kind another role owns: introspected, applied elsewhere with the same owners (pg_dump with owners equal), and a drift given back', async () => {
    const from = await freshDatabase(plain, 'owners');
    const [a, b] = [`oa_${from.name}`, `ob_${from.name}`];
    await from.query(`CREATE ROLE ${a}; CREATE ROLE ${b}; GRANT ${a}, ${b} TO CURRENT_USER;`);
    await from.query(EVERY_KIND(a, b));
    const dir = projectDir({});
    const intro = await cli(['introspect', '--database', from.url, '-o', 'citus-migrate.yaml'], { cwd: dir });
    expect(intro.code, intro.stderr).toBe(0);
    const owners = readFileSync(join(dir, 'sql', 'owners.sql'), 'utf8');
    for (const line of [
      `ALTER SCHEMA app OWNER TO ${a};`,
      `ALTER TABLE app.p_2026 OWNER TO ${b};`,
      `ALTER MATERIALIZED VIEW app.m OWNER TO ${a};`,
      `ALTER AGGREGATE app.total(integer) OWNER TO ${b};`,
      `ALTER OPERATOR app.===(integer, integer) OWNER TO ${b};`,
      `ALTER OPERATOR FAMILY app.fam USING btree OWNER TO ${a};`,
      `ALTER PUBLICATION pub OWNER TO ${a};`,
    ])
      expect(owners).toContain(line);
    // A serial column's sequence follows its table: no line of its own.
    expect(owners).not.toContain('app.s_id_seq');
    expect((await plan(from, dir)).code).toBe(0);

    const to = await freshDatabase(plain, 'owners');
    const apply = await cli(['apply', '--database', to.url, '--auto-approve'], { cwd: dir });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr).toContain(`give relation app.t to ${a}`);
    expect((await plan(to, dir)).code).toBe(0);
    expect(schemaDump(to, { owners: true })).toBe(schemaDump(from, { owners: true }));

    // Someone gives the table and the function to another role: a difference, given back.
    await to.query(`ALTER TABLE app.t OWNER TO ${b}; ALTER FUNCTION app.f(integer) OWNER TO ${a}`);
    const drift = await plan(to, dir);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain(`give relation app.t to ${a}`);
    expect(drift.stdout).toContain(`give routine app.f(integer) to ${b}`);
    expect((await cli(['apply', '--database', to.url, '--auto-approve'], { cwd: dir })).code).toBe(0);
    expect((await plan(to, dir)).code).toBe(0);
    expect(schemaDump(to, { owners: true })).toBe(schemaDump(from, { owners: true }));
  });

  it('an owner the files do not give: left alone and listed unmanaged; given back to the role that applies with prune, or when the files name that role', async () => {
    const db = await freshDatabase(plain, 'owners');
    const other = `oo_${db.name}`;
    await db.query(`CREATE ROLE ${other}`);
    const dir = projectDir({
      'citus-migrate.yaml': 'version: 1\nsql: [v.sql]\ntables:\n  t: { columns: { id: integer } }\n',
      'v.sql': 'CREATE VIEW public.v AS SELECT id FROM public.t;\n',
    });
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir })).code).toBe(0);
    await db.query(`ALTER TABLE public.t OWNER TO ${other}; ALTER VIEW public.v OWNER TO ${other}`);
    const owner = async (rel: string) =>
      (
        await db.query<{ o: string }>(
          `SELECT relowner::regrole::text AS o FROM pg_class WHERE oid = '${rel}'::regclass`,
        )
      )[0]!.o;

    const left = await plan(db, dir, '--include-unmanaged');
    expect(left.code).toBe(2);
    expect(left.stdout).toContain('owner of relation public.t');
    expect(left.stdout).toContain('owner of relation public.v');
    expect((await plan(db, dir)).code).toBe(0);
    // The files name the applier for the view: given back, the table's left as it is.
    writeFileSync(join(dir, 'o.sql'), `ALTER VIEW v OWNER TO ${plain.user};\n`);
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      'version: 1\nsql: [v.sql, o.sql]\ntables:\n  t: { columns: { id: integer } }\n',
    );
    const back = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toContain(`give relation public.v to ${plain.user}`);
    expect(await owner('public.v')).toBe(plain.user);
    expect(await owner('public.t')).toBe(other);
    // With prune, the table's too.
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      'version: 1\nprune: true\nsql: [v.sql, o.sql]\ntables:\n  t: { columns: { id: integer } }\n',
    );
    const pruned = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stderr).toContain('give relation public.t back to the role that applies (prune)');
    expect(await owner('public.t')).toBe(plain.user);
    expect((await plan(db, dir, '--include-unmanaged')).code).toBe(0);
  });

  it('a view made again keeps the owner the files give it, and its grants after the owner', async () => {
    const db = await freshDatabase(plain, 'owners');
    const other = `ov_${db.name}`;
    const reader = `or_${db.name}`;
    await db.query(`CREATE ROLE ${other}; CREATE ROLE ${reader}`);
    const files = (body: string) => ({
      'citus-migrate.yaml': 'version: 1\nsql: [v.sql]\ntables:\n  t: { columns: { id: integer, n: integer } }\n',
      'v.sql': `CREATE VIEW public.v AS SELECT ${body} FROM public.t;\nALTER VIEW public.v OWNER TO ${other};\nGRANT SELECT ON public.v TO ${reader};\nREVOKE INSERT ON public.v FROM ${other};\n`,
    });
    const dir = projectDir(files('id'));
    const first = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'widens_access'], {
      cwd: dir,
    });
    expect(first.code, first.stderr).toBe(0);
    expect((await plan(db, dir)).code).toBe(0);
    writeFileSync(join(dir, 'v.sql'), files('id, n')['v.sql']);
    const again = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect((await plan(db, dir)).code).toBe(0);
    const [row] = await db.query<{ o: string; acl: string }>(
      "SELECT relowner::regrole::text AS o, relacl::text AS acl FROM pg_class WHERE oid = 'public.v'::regclass",
    );
    expect(row!.o).toBe(other);
    expect(row!.acl).toContain(`${reader}=r/${other}`);
    expect(row!.acl).toContain(`${other}=rwdDxt/${other}`);
  });

  it('an owner PostgreSQL would refuse is a plan problem at its line, and nothing changes', async () => {
    const db = await freshDatabase(plain, 'owners');
    const dir = projectDir({
      'citus-migrate.yaml':
        'version: 1\nsql: [o.sql]\nsequences:\n  app.s: { owned_by: { table: app.t, column: id } }\ntables:\n  app.t: { columns: { id: bigint } }\n',
      'o.sql': `ALTER TABLE app.t OWNER TO no_such_role_${db.name};\nALTER SEQUENCE app.s OWNER TO ${plain.user};\n`,
    });
    const before = schemaDump(db);
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `o.sql:1:1: owner of relation app.t: gives it to role no_such_role_${db.name}, which the server does not have`,
    );
    expect(r.stderr).toContain('o.sql:2:1: owner of relation app.s: the sequence goes with app.t.id (OWNED BY)');
    expect(schemaDump(db)).toBe(before);
  });
});
