// Never "No changes" while the database differs: on a real PostgreSQL holding objects of every
// kind the model does not hold, introspect + plan names each of them, and a drift check fails.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const OBJECTS = `
CREATE TYPE mood AS ENUM ('a', 'b');
CREATE DOMAIN posint AS int CHECK (VALUE > 0);
CREATE TYPE pair AS (x int, y int);
CREATE TABLE t (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, m mood, v int CHECK (v > 0), name text COLLATE "C",
                g int GENERATED ALWAYS AS (v * 2) STORED);
CREATE UNLOGGED TABLE u (a int);
CREATE TABLE p (d date NOT NULL, x int) PARTITION BY RANGE (d);
CREATE TABLE p1 PARTITION OF p FOR VALUES FROM ('2020-01-01') TO ('2021-01-01');
CREATE INDEX t_lower ON t (lower(name));
CREATE INDEX t_part ON t (v) WHERE v > 10;
CREATE INDEX t_desc ON t (v DESC);
CREATE VIEW tv AS SELECT id, v FROM t;
CREATE MATERIALIZED VIEW tmv AS SELECT id FROM t;
CREATE FUNCTION trg() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NEW; END$$;
CREATE TRIGGER t_trg BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION trg();
ALTER TABLE t ENABLE ROW LEVEL SECURITY;
CREATE POLICY pol ON t USING (v > 0);
COMMENT ON TABLE t IS 'hello';
CREATE CONVERSION myconv FOR 'UTF8' TO 'LATIN1' FROM utf8_to_iso8859_1;
ALTER TABLE p1 ADD CONSTRAINT p1_d UNIQUE (d);
CREATE TABLE fkp (d date, CONSTRAINT to_p1 FOREIGN KEY (d) REFERENCES p1 (d));
CREATE TABLE ex (a int, b int, UNIQUE (a) DEFERRABLE, EXCLUDE USING btree (b WITH =));
DO $$BEGIN CREATE ROLE cm_reader; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
GRANT SELECT ON t TO cm_reader;
`;

describe('objects the model does not hold are named, never hidden', () => {
  let db: TestDb;
  let dir: string;
  beforeAll(async () => {
    db = await freshDatabase(plainServers(), 'nm');
    expect(db.psql({ input: OBJECTS }).stderr).not.toContain('ERROR');
    dir = mkdtempSync(join(tmpdir(), 'cm-nm-'));
    const intro = await cli(['introspect', '--database', db.url, '-o', join(dir, 'citus-migrate.yaml')]);
    expect(intro.code).toBe(0);
  });

  it('plan of the introspected manifest lists every kind, and does not say the cluster matches', async () => {
    const r = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('matches the manifest');
    expect(r.stdout.split('\n')[1]).toMatch(
      /^No changes to what the manifest declares; the cluster also holds \d+ objects? of kinds citus-migrate does not manage \(not compared\)\.$/,
    );
    const json = JSON.parse((await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir })).stdout) as {
      unmanaged: string[];
      notManaged: { kind: string; name: string }[];
    };
    // The plain trigger function is declared (local: true), and the views, types, indexes,
    // constraints, triggers, policies and comments are in the sql/ files introspect wrote:
    // nothing is unmanaged, and none of those kinds is among the not-managed ones.
    expect(json.unmanaged).toEqual([]);
    const got = json.notManaged.map((x) => `${x.kind}: ${x.name}`);
    // DEFERRABLE keys are managed (declared in the manifest), not named.
    expect(got.some((x) => x.includes('DEFERRABLE'))).toBe(false);
    expect(got).toEqual(expect.arrayContaining(['foreign key to a partition: public.fkp.to_p1']));
    const managed = [
      'partition',
      'view',
      'materialized view',
      'enum',
      'domain',
      'composite type',
      'index',
      'index option',
      'check constraint',
      'exclusion constraint',
      'trigger',
      'policy',
      'row level security',
      'comment',
      'extension',
      'privileges',
      'default privileges',
      'conversion',
      'text search parser',
      'shell type',
    ];
    expect(json.notManaged.filter((x) => managed.includes(x.kind))).toEqual([]);
    // The identity column's sequence is part of the column, not a sequence to declare.
    expect(json.notManaged.some((x) => x.name.includes('t_id_seq'))).toBe(false);
    const sql = (await cli(['plan', '--database', db.url, '--format', 'sql'], { cwd: dir })).stdout;
    expect(sql).toContain('-- not managed (never compared): foreign key to a partition public.fkp.to_p1\n');
  });

  it('a drift check (--detailed-exitcode --include-unmanaged) exits 2; without the flag 0', async () => {
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
    expect(
      (await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], { cwd: dir })).code,
    ).toBe(2);
  });

  it('apply with nothing to do does not say the cluster matches either', async () => {
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('matches the manifest');
    expect(r.stdout).toMatch(
      /^Nothing to do\. No changes to what the manifest declares; the cluster also holds \d+ objects? of kinds citus-migrate does not manage \(not compared\)\.\n$/,
    );
  });

  it('an extra column on a declared table is named as unmanaged', async () => {
    const small = mkdtempSync(join(tmpdir(), 'cm-nm-'));
    writeFileSync(
      join(small, 'citus-migrate.yaml'),
      'version: 1\ntables:\n  u: { local: true, columns: { z: int } }\n',
    );
    await db.query('ALTER TABLE u ADD COLUMN z int');
    const r = await cli(['plan', '--database', db.url], { cwd: small });
    expect(r.stdout).toContain('Unmanaged (in the cluster, not in the manifest; left alone)');
    expect(r.stdout).toContain('\n  column public.u.a\n');
    expect(r.stdout).not.toContain('matches the manifest');
  });
});

describe('introspect + prune drops no routine', () => {
  it('plain routines are declared local, overloads by signature; prune: true then plans nothing', async () => {
    const db = await freshDatabase(plainServers(), 'nmr');
    expect(
      db.psql({
        input: `
      CREATE FUNCTION plain_f(a int) RETURNS int LANGUAGE sql AS 'SELECT a';
      CREATE PROCEDURE plain_p() LANGUAGE plpgsql AS $$BEGIN NULL; END$$;
      CREATE FUNCTION over(a int) RETURNS int LANGUAGE sql AS 'SELECT a';
      CREATE FUNCTION over(a text) RETURNS text LANGUAGE sql AS 'SELECT a';
    `,
      }).stderr,
    ).not.toContain('ERROR');
    const dir = mkdtempSync(join(tmpdir(), 'cm-nmr-'));
    const intro = await cli(['introspect', '--database', db.url]);
    expect(intro.code).toBe(0);
    expect(intro.stdout).toContain('  plain_f:\n    signature: plain_f(integer)\n    local: true\n');
    expect(intro.stdout).toContain(
      '  over(integer):\n    signature: over(integer)\n    local: true\n  over(text):\n    signature: over(text)\n    local: true\n',
    );
    writeFileSync(join(dir, 'citus-migrate.yaml'), `${intro.stdout}prune: true\n`);
    const plan = JSON.parse((await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir })).stdout) as {
      changes: boolean;
      unmanaged: string[];
    };
    expect(plan).toMatchObject({ changes: false, unmanaged: [] });
  });
});
