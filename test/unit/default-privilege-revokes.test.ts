// Default privileges in force land on what a plan creates: the plan takes them back right after
// the CREATE, in the same transaction, and the declared GRANTs follow.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel } from '../../src/model/types.js';
import { privilegesFromCatalog } from '../../src/objects/privileges.js';
import { diff } from '../../src/plan/diff.js';
import { renderSql, summarize } from '../../src/plan/step-spec.js';
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
});
