// Default privileges in force land on what a plan creates: the plan takes them back right after
// the CREATE, in the same transaction, and the declared GRANTs follow.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel } from '../../src/model/types.js';
import { privilegesFromCatalog } from '../../src/objects/privileges-catalog.js';
import { diff } from '../../src/plan/diff/diff.js';
import { renderSql, summarize } from '../../src/plan/steps/step-spec.js';
import { loadParser } from '../../src/sql/pg-parse.js';
import { load } from '../support/manifest.js';

const actualWith = (rows: Parameters<typeof privilegesFromCatalog>[0]): ClusterModel => ({
  schemas: ['public', 'app'],
  tables: {},
  groups: {},
  sequences: {},
  routines: {},
  objects: Object.fromEntries(privilegesFromCatalog(rows).map((o) => [o.id, o])),
});

const MANIFEST = `version: 1
tables:
  app.n: { columns: { id: bigint } }
  other.m: { columns: { id: bigint } }
sequences:
  app.s: {}
sql: [grants.sql]
`;

describe('default privileges and the objects a plan creates', () => {
  beforeAll(loadParser);

  it('revokes what the defaults give right after CREATE, before the declared GRANTs', async () => {
    const m = await load(MANIFEST, {
      'grants.sql':
        'ALTER DEFAULT PRIVILEGES FOR ROLE owner IN SCHEMA app GRANT SELECT, INSERT ON TABLES TO cm_reader;\nALTER DEFAULT PRIVILEGES FOR ROLE owner GRANT USAGE ON SEQUENCES TO PUBLIC;\nGRANT SELECT ON app.n TO cm_reader;\n',
    });
    const actual = actualWith([
      ['TABLES', 'owner', null, 'cm_reader', 'SELECT', false, null, 'app'],
      ['TABLES', 'owner', null, 'cm_reader', 'INSERT', false, null, 'app'],
      ['SEQUENCES', 'owner', null, 'PUBLIC', 'USAGE', false, null, null],
    ]);
    const r = diff(m.desired, actual);
    expect(r.problems).toEqual([]);
    const sql = r.steps.flatMap((s) => renderSql(s)).filter((s) => !s.startsWith('SET LOCAL'));
    expect(sql).toEqual([
      'CREATE SCHEMA other',
      'CREATE SEQUENCE app.s AS bigint CACHE 1',
      'REVOKE ALL ON SEQUENCE app.s FROM PUBLIC',
      'CREATE TABLE app.n (\n    id bigint\n)',
      'CREATE TABLE other.m (\n    id bigint\n)',
      // other.m is outside the schema the table defaults are for: nothing to take back.
      'REVOKE ALL ON TABLE app.n FROM cm_reader',
      'GRANT SELECT ON TABLE app.n TO cm_reader',
    ]);
    expect(r.steps.filter((s) => s.kind === 'revoke_default_privileges').map(summarize)).toEqual([
      'revoke what default privileges give PUBLIC on new sequence app.s (the manifest declares its privileges)',
      'revoke what default privileges give cm_reader on new table app.n (the manifest declares its privileges)',
    ]);
  });

  it('plans nothing more when no default privileges are in force', async () => {
    const m = await load(MANIFEST, { 'grants.sql': 'GRANT SELECT ON app.n TO cm_reader;\n' });
    const r = diff(m.desired, actualWith([]));
    expect(r.steps.some((s) => s.kind === 'revoke_default_privileges')).toBe(false);
  });

  it('takes back defaults on every kind they apply to, each right after its CREATE and before its GRANTs', async () => {
    const m = await load(
      `version: 1
schemas: { other: {} }
tables:
  app.m:
    columns: { d: { type: date, not_null: true }, id: bigserial }
    partition_by: range (d)
    partitions:
      m1: { from: '2020-01-01', to: '2021-01-01' }
sql: [objects.sql]
`,
      {
        'objects.sql': [
          'CREATE VIEW app.v AS SELECT 1 AS one;',
          'CREATE MATERIALIZED VIEW app.mv AS SELECT 1 AS one;',
          "CREATE TYPE app.e AS ENUM ('a');",
          'CREATE DOMAIN app.pos AS integer CHECK (VALUE > 0);',
          'CREATE FUNCTION app.f(x integer) RETURNS integer LANGUAGE sql AS $$ SELECT x $$;',
          'GRANT SELECT ON app.v TO cm_reader;',
          '',
        ].join('\n'),
      },
    );
    const actual = actualWith([
      ['TABLES', 'owner', null, 'cm_reader', 'SELECT', false, null, 'app'],
      ['SEQUENCES', 'owner', null, 'cm_reader', 'USAGE', false, null, null],
      ['FUNCTIONS', 'owner', null, 'cm_reader', 'EXECUTE', false, null, 'app'],
      ['TYPES', 'owner', null, 'cm_reader', 'USAGE', false, null, null],
      ['SCHEMAS', 'owner', null, 'cm_reader', 'USAGE', false, null, null],
    ]);
    const r = diff(m.desired, { ...actual, schemas: ['public', 'app'] });
    expect(r.problems).toEqual([]);
    const sql = r.steps.flatMap((s) => renderSql(s)).filter((s) => !s.startsWith('SET LOCAL'));
    const at = (text: string): number => sql.findIndex((x) => x.startsWith(text));
    const revokes = [
      ['CREATE SCHEMA other', 'REVOKE ALL ON SCHEMA other FROM cm_reader'],
      ['CREATE TABLE app.m', 'REVOKE ALL ON TABLE app.m FROM cm_reader'],
      ['CREATE TABLE app.m', 'REVOKE ALL ON SEQUENCE app.m_id_seq FROM cm_reader'],
      ['CREATE TABLE app.m1 PARTITION OF', 'REVOKE ALL ON TABLE app.m1 FROM cm_reader'],
      ['CREATE VIEW app.v', 'REVOKE ALL ON TABLE app.v FROM cm_reader'],
      ['CREATE MATERIALIZED VIEW app.mv', 'REVOKE ALL ON TABLE app.mv FROM cm_reader'],
      ['CREATE TYPE app.e', 'REVOKE ALL ON TYPE app.e FROM cm_reader'],
      ['CREATE DOMAIN app.pos', 'REVOKE ALL ON TYPE app.pos FROM cm_reader'],
      ['CREATE FUNCTION app.f', 'REVOKE ALL ON ROUTINE app.f(integer) FROM cm_reader'],
    ];
    for (const [create, revoke] of revokes) {
      expect(at(revoke!), revoke).toBeGreaterThan(-1);
      expect(at(revoke!), `${revoke} after ${create}`).toBeGreaterThan(at(create!));
    }
    expect(at('GRANT SELECT ON TABLE app.v TO cm_reader')).toBeGreaterThan(at('REVOKE ALL ON TABLE app.v'));
  });

  it('gives PUBLIC back what defaults take from new functions and types', async () => {
    const m = await load('version: 1\nschemas: { app: {} }\nsql: [f.sql]\n', {
      'f.sql':
        "CREATE FUNCTION app.f() RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$;\nREVOKE EXECUTE ON FUNCTION app.f() FROM PUBLIC;\nCREATE TYPE app.e AS ENUM ('a');\n",
    });
    const actual = actualWith([
      // The catalog leaves out what the owner holds: an ACL that is set and gives PUBLIC nothing.
      ['FUNCTIONS', 'owner', null, null, null, null, null, null],
      ['TYPES', 'owner', null, null, null, null, null, null],
    ]);
    const r = diff(m.desired, actual);
    const sql = r.steps.flatMap((s) => renderSql(s)).filter((s) => /^(GRANT|REVOKE)/.test(s));
    expect(sql).toEqual([
      'GRANT USAGE ON TYPE app.e TO PUBLIC',
      'GRANT EXECUTE ON ROUTINE app.f() TO PUBLIC',
      'REVOKE EXECUTE ON FUNCTION app.f() FROM PUBLIC',
    ]);
    expect(r.steps.filter((s) => s.kind === 'revoke_default_privileges').map(summarize)).toEqual([
      'give PUBLIC back the USAGE default privileges take away on new enum app.e (the manifest declares its privileges)',
      'give PUBLIC back the EXECUTE default privileges take away on new routine app.f() (the manifest declares its privileges)',
    ]);
  });
});
