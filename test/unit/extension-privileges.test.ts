// GRANT / REVOKE on what an extension made, compared with what its script left (pg_init_privs), on
// both sides: the catalog's ACL now against its initial one, and the files' statements applied
// again to the initial one once the cluster is known (objects/extension-privileges.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, SqlObject } from '../../src/model/types.js';
import type { AclItem, ExtensionTarget } from '../../src/model/privilege-types.js';
import { objectsFromSql } from '../../src/objects/from-sql.js';
import { extensionPrivilegesFromCatalog, withExtensionPrivileges } from '../../src/objects/extension-privileges.js';
import { aclItemEntries, extensionTargetsOf } from '../../src/objects/privileges-catalog.js';
import { loadParser, typeFromNode, type Node } from '../../src/sql/pg-parse.js';
import { withGrantWorkerSteps } from '../../src/plan/diff/grant-workers.js';
import type { Step } from '../../src/plan/steps/steps.js';

beforeAll(async () => {
  await loadParser();
});

const argTypes = (owa: Node): string =>
  (owa.objargs ?? []).map((t: Node) => typeFromNode(t.TypeName ?? t).sql).join(', ');

const empty: ClusterModel = { schemas: ['public'], tables: {}, groups: {}, sequences: {}, routines: {}, objects: {} };
const byId = (objects: readonly SqlObject[]): Record<string, { create: readonly string[]; drop?: readonly string[] }> =>
  Object.fromEntries(objects.map((o) => [o.id, { create: o.create, drop: o.drop ?? [] }]));

// pg_stat_statements 1.10 as its script leaves it.
const RESET = 'public.pg_stat_statements_reset(oid, oid, bigint)';
const reset = (now: readonly AclItem[] | null): ExtensionTarget => ({
  type: 'FUNCTION',
  name: RESET,
  owner: 'postgres',
  init: [['postgres', 'EXECUTE', false]],
  now,
});
const view = (now: readonly AclItem[] | null): ExtensionTarget => ({
  type: 'TABLE',
  name: 'public.pg_stat_statements',
  owner: 'postgres',
  init: [
    ['PUBLIC', 'SELECT', false],
    ...(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'] as const).map((p): AclItem => [
      'postgres',
      p,
      false,
    ]),
  ],
  now,
});

function desiredFrom(sql: string, extra: Record<string, SqlObject> = {}): ClusterModel {
  const read = objectsFromSql([{ file: 'grants.sql', text: sql }], 'public', argTypes);
  expect(read.problems).toEqual([]);
  return { ...empty, objects: { ...read.objects, ...extra }, privilegeOps: read.privilegeOps };
}
const actualWith = (targets: readonly ExtensionTarget[], objects: Record<string, SqlObject> = {}): ClusterModel => ({
  ...empty,
  objects: { ...objects, ...Object.fromEntries(extensionPrivilegesFromCatalog(targets).map((o) => [o.id, o])) },
  extensionTargets: Object.fromEntries(targets.map((t) => [`${t.type} ${t.name}`, t])),
});

describe('the catalog side: what differs from what the script left', () => {
  it('is nothing while the ACL is the initial one', () => {
    expect(extensionPrivilegesFromCatalog([reset([['postgres', 'EXECUTE', false]]), view(view(null).init)])).toEqual(
      [],
    );
  });

  it('names a grant since, and a revoke since, each undone by its drop', () => {
    const objects = extensionPrivilegesFromCatalog([
      reset([
        ['postgres', 'EXECUTE', false],
        ['monitor', 'EXECUTE', true],
      ]),
      view(view(null).init!.filter(([g]) => g !== 'PUBLIC')),
    ]);
    expect(byId(objects)).toEqual({
      [`privileges function ${RESET} to monitor`]: {
        create: [`GRANT EXECUTE ON FUNCTION ${RESET} TO monitor WITH GRANT OPTION`],
        drop: [`REVOKE EXECUTE ON FUNCTION ${RESET} FROM monitor`],
      },
      'privileges table public.pg_stat_statements revoked from PUBLIC': {
        create: ['REVOKE SELECT ON TABLE public.pg_stat_statements FROM PUBLIC'],
        drop: ['GRANT SELECT ON TABLE public.pg_stat_statements TO PUBLIC'],
      },
    });
  });

  it('reads an ACL not set as the defaults (owner and PUBLIC), and a grant option taken back', () => {
    const lang: ExtensionTarget = {
      type: 'LANGUAGE',
      name: 'plpgsql',
      owner: 'postgres',
      init: [
        ['PUBLIC', 'USAGE', false],
        ['loader', 'USAGE', true],
        ['postgres', 'USAGE', false],
      ],
      now: [
        ['loader', 'USAGE', false],
        ['postgres', 'USAGE', false],
      ],
    };
    const citext: ExtensionTarget = { type: 'TYPE', name: 'public.citext', owner: 'postgres', init: null, now: [] };
    expect(byId(extensionPrivilegesFromCatalog([lang, citext]))).toEqual({
      'privileges language plpgsql revoked from PUBLIC': {
        create: ['REVOKE USAGE ON LANGUAGE plpgsql FROM PUBLIC'],
        drop: ['GRANT USAGE ON LANGUAGE plpgsql TO PUBLIC'],
      },
      'privileges language plpgsql revoked from loader': {
        create: ['REVOKE GRANT OPTION FOR USAGE ON LANGUAGE plpgsql FROM loader'],
        drop: ['GRANT USAGE ON LANGUAGE plpgsql TO loader WITH GRANT OPTION'],
      },
      'privileges type public.citext revoked from PUBLIC': {
        create: ['REVOKE USAGE ON TYPE public.citext FROM PUBLIC'],
        drop: ['GRANT USAGE ON TYPE public.citext TO PUBLIC'],
      },
      'privileges type public.citext revoked from its owner': {
        create: ['REVOKE USAGE ON TYPE public.citext FROM postgres'],
        drop: ['GRANT USAGE ON TYPE public.citext TO postgres'],
      },
    });
  });

  it('groups the catalog rows of a target and its columns, their aclitems read as PostgreSQL prints them', () => {
    const left = ['=r/postgres', 'postgres=arwdDxt/postgres'];
    const targets = extensionTargetsOf([
      ['TABLE', 'public.pg_stat_statements', 'postgres', null, 'init', left],
      ['TABLE', 'public.pg_stat_statements', 'postgres', 'calls', ['monitor=r/postgres'], null],
      [
        'FUNCTION',
        'pg_catalog.pg_ls_dir(text)',
        'postgres',
        null,
        ['postgres=X/postgres', '"Ops ""x"""=X*/postgres'],
        ['postgres=X/postgres'],
      ],
    ]);
    expect([...(targets['TABLE public.pg_stat_statements']?.now ?? [])].sort()).toEqual([...view(null).init!].sort());
    expect(byId(extensionPrivilegesFromCatalog(Object.values(targets)))).toEqual({
      'privileges table public.pg_stat_statements to monitor': {
        create: ['GRANT SELECT (calls) ON TABLE public.pg_stat_statements TO monitor'],
        drop: ['REVOKE SELECT (calls) ON TABLE public.pg_stat_statements FROM monitor'],
      },
      'privileges function pg_catalog.pg_ls_dir(text) to "Ops ""x"""': {
        create: ['GRANT EXECUTE ON FUNCTION pg_catalog.pg_ls_dir(text) TO "Ops ""x""" WITH GRANT OPTION'],
        drop: ['REVOKE EXECUTE ON FUNCTION pg_catalog.pg_ls_dir(text) FROM "Ops ""x"""'],
      },
    });
  });

  it('reads every privilege letter and refuses what is no aclitem', () => {
    expect(aclItemEntries('r_1=rawdDxtXUCTcsAm*/x').map(([, p, g]) => `${p}${g ? '*' : ''}`)).toEqual([
      'SELECT',
      'INSERT',
      'UPDATE',
      'DELETE',
      'TRUNCATE',
      'REFERENCES',
      'TRIGGER',
      'EXECUTE',
      'USAGE',
      'CREATE',
      'TEMPORARY',
      'CONNECT',
      'SET',
      'ALTER SYSTEM',
      'MAINTAIN*',
    ]);
    expect(aclItemEntries('"a=b/c"=U/x')).toEqual([['"a=b/c"', 'USAGE', false]]);
    expect(() => aclItemEntries('monitor')).toThrow(/not an aclitem/);
    expect(() => aclItemEntries('m=Q/x')).toThrow(/unknown privilege Q/);
  });
});

describe('the declared side: the statements applied again to what the script left', () => {
  it('equals the catalog side once applied (a REVOKE takes what the script gave PUBLIC)', () => {
    const desired = desiredFrom(`REVOKE SELECT ON pg_stat_statements FROM PUBLIC;
GRANT SELECT ON pg_stat_statements TO monitor;
GRANT EXECUTE ON FUNCTION pg_stat_statements_reset(oid, oid, bigint) TO monitor;
REVOKE EXECUTE ON FUNCTION pg_stat_statements_reset(oid, oid, bigint) FROM PUBLIC;`);
    const before = withExtensionPrivileges(desired, actualWith([reset(null), view(null)]), 'public');
    const applied = actualWith([
      reset([
        ['monitor', 'EXECUTE', false],
        ['postgres', 'EXECUTE', false],
      ]),
      view([...view(null).init!.filter(([g]) => g !== 'PUBLIC'), ['monitor', 'SELECT', false]]),
    ]);
    const strip = (m: ClusterModel) => byId(Object.values(m.objects));
    expect(strip(before)).toEqual(strip(applied));
    expect(Object.keys(strip(before)).sort()).toEqual([
      `privileges function ${RESET} to monitor`,
      'privileges table public.pg_stat_statements revoked from PUBLIC',
      'privileges table public.pg_stat_statements to monitor',
    ]);
    // (The REVOKE EXECUTE … FROM PUBLIC does nothing there: the script had taken it.)
  });

  it('runs the statements as written, after it, on what an extension the plan creates will make', () => {
    const ext: SqlObject = {
      id: 'extension pg_stat_statements',
      kind: 'extension',
      name: 'pg_stat_statements',
      create: ['CREATE EXTENSION pg_stat_statements'],
      provides: [],
      deps: [],
    };
    const desired = desiredFrom('REVOKE SELECT ON pg_stat_statements FROM PUBLIC;', { [ext.id]: ext });
    const planned = withExtensionPrivileges(desired, actualWith([]), 'public');
    const o = planned.objects['privileges table public.pg_stat_statements as the files grant and revoke it'];
    expect(o?.create).toEqual(['REVOKE SELECT ON TABLE public.pg_stat_statements FROM PUBLIC']);
    expect(o?.deps).toEqual(['extension pg_stat_statements']);
    // What the plan knows otherwise is read as before: a table it declares is no extension's.
    const declared = desiredFrom('GRANT SELECT ON app.t TO monitor;', { [ext.id]: ext });
    const withTable = { ...declared, tables: { 'app.t': {} as never } };
    expect(Object.keys(withExtensionPrivileges(withTable, actualWith([]), 'public').objects).sort()).toEqual([
      ext.id,
      'privileges table app.t to monitor',
    ]);
  });

  it('leaves the files as they are when the cluster has no such object', () => {
    const desired = desiredFrom('GRANT SELECT ON app.t TO monitor;');
    expect(withExtensionPrivileges(desired, actualWith([reset(null)]))).toBe(desired);
  });
});

describe('on Citus: the steps the workers need too', () => {
  it('mirrors after COMMIT each privileges step of what an extension or initdb made, but a foreign data wrapper’s', () => {
    const actual = actualWith([
      reset(null),
      { type: 'FOREIGN DATA WRAPPER', name: 'file_fdw', owner: 'postgres', now: null, init: null },
    ]);
    const step = (object: string): Step => ({
      kind: 'create_object',
      object,
      objectKind: 'privileges',
      statements: [`-- ${object}`],
      recreate: false,
      searchPath: 'public',
    });
    const steps = withGrantWorkerSteps(actual, [
      step(`privileges function ${RESET} to monitor`),
      step('privileges foreign data wrapper file_fdw to loader'),
      step('privileges table app.t to monitor'),
      step('privileges table public.pg_stat_statements as the files grant and revoke it'),
    ]);
    expect(steps.slice(4)).toEqual([
      {
        kind: 'grant_on_workers',
        object: `privileges function ${RESET} to monitor`,
        statements: [`-- privileges function ${RESET} to monitor`],
        searchPath: 'public',
        runAfterCommit: true,
      },
      {
        kind: 'grant_on_workers',
        object: 'privileges table public.pg_stat_statements as the files grant and revoke it',
        statements: ['-- privileges table public.pg_stat_statements as the files grant and revoke it'],
        searchPath: 'public',
        runAfterCommit: true,
      },
    ]);
  });
});
