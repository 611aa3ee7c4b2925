// Hazards of what changes security (a SECURITY DEFINER routine, an extension, privileges of
// PUBLIC, row-level security taken away) and of what loses data (a lossy type change, pruned
// sequences, views and types): each must be allowed by name at apply.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, SqlObject } from '../../src/model/types.js';
import { objectSteps } from '../../src/plan/diff/objects.js';
import { hazardsOf, summarize } from '../../src/plan/steps/step-spec.js';
import { statementHazards } from '../../src/plan/steps/statement-hazards.js';
import type { Step } from '../../src/plan/steps/steps.js';
import { parseHazards } from '../../src/apply/hazards.js';
import { loadParser } from '../../src/sql/pg-parse.js';
import { addedCheck } from '../../src/objects/statement-parts.js';
import { REAL_SCHEMAS_DIR, realSchemaStatements } from '../support/corpus-statements.js';
import { existsSync } from 'node:fs';

beforeAll(async () => {
  await loadParser();
});

const table = { schema: 'app', name: 't' };

function model(objects: SqlObject[]): ClusterModel {
  return {
    schemas: ['public', 'app'],
    groups: {},
    sequences: {},
    routines: {},
    tables: {
      'app.t': {
        id: 'app.t',
        qname: table,
        unique: [],
        indexes: [],
        foreignKeys: [],
        distribution: { kind: 'local' as const },
      },
    },
    objects: Object.fromEntries(objects.map((o) => [o.id, o])),
  };
}
const object = (id: string, kind: SqlObject['kind'], create: string[], drop: string[]): SqlObject => ({
  id,
  kind,
  name: id.slice(kind.length + 1),
  parent: 'relation app.t',
  create,
  drop,
  provides: [],
  deps: ['relation app.t'],
});
const ctx = {
  ignore: () => false,
  changedRelations: new Set<string>(),
  recreatedRoutines: new Set<string>(),
  recorded: {},
};

describe('security hazards', () => {
  it.each([
    ['CREATE FUNCTION f() RETURNS int LANGUAGE sql SECURITY DEFINER AS $$SELECT 1$$', ['security_definer']],
    ['CREATE FUNCTION f() RETURNS int LANGUAGE sql SECURITY INVOKER AS $$SELECT 1$$', []],
    ['ALTER FUNCTION f() SECURITY DEFINER', ['security_definer']],
    ['CREATE EXTENSION IF NOT EXISTS pgcrypto', ['creates_extension']],
    ['GRANT SELECT ON TABLE app.t TO PUBLIC', ['public_privileges']],
    ['REVOKE EXECUTE ON FUNCTION app.f() FROM PUBLIC', ['public_privileges']],
    ['ALTER DEFAULT PRIVILEGES FOR ROLE o GRANT SELECT ON TABLES TO PUBLIC', ['public_privileges']],
    ['GRANT SELECT ON TABLE app.t TO reader', []],
    ['DROP POLICY p ON app.t', ['weakens_security']],
    ['ALTER TABLE app.t DISABLE ROW LEVEL SECURITY', ['weakens_security']],
    ['ALTER TABLE app.t NO FORCE ROW LEVEL SECURITY', ['weakens_security']],
    ['ALTER TABLE app.t ENABLE ROW LEVEL SECURITY', []],
  ])('%s', (sql, want) => {
    expect(statementHazards([sql])).toEqual(want);
  });

  it('a routine created or replaced with SECURITY DEFINER must be allowed', () => {
    const definition =
      'CREATE FUNCTION app.f() RETURNS void LANGUAGE sql SECURITY DEFINER AS $$ALTER ROLE x SUPERUSER$$';
    const base = { routine: { schema: 'app', name: 'f' }, signature: 'app.f()', routineKind: 'function' as const };
    expect(hazardsOf({ kind: 'create_routine', ...base, definition })).toEqual(['security_definer']);
    expect(hazardsOf({ kind: 'replace_routine', ...base, definition })).toEqual(['security_definer']);
  });

  it('pruning a policy and row-level security weakens security, and the steps name them', () => {
    const rls = object(
      'row level security app.t',
      'row level security',
      ['ALTER TABLE app.t ENABLE ROW LEVEL SECURITY'],
      ['ALTER TABLE app.t NO FORCE ROW LEVEL SECURITY', 'ALTER TABLE app.t DISABLE ROW LEVEL SECURITY'],
    );
    const policy = object(
      'policy app.t.p',
      'policy',
      ['CREATE POLICY p ON app.t USING (false)'],
      ['DROP POLICY p ON app.t'],
    );
    const { steps } = objectSteps(model([]), model([rls, policy]), { ...ctx, prune: true });
    expect(steps.map((s) => [summarize(s), hazardsOf(s)])).toEqual([
      ['drop policy app.t.p (prune)', ['weakens_security']],
      ['drop row level security app.t (prune)', ['weakens_security']],
    ]);
  });

  it('a changed policy is dropped and created again: weakens_security', () => {
    const was = object(
      'policy app.t.p',
      'policy',
      ['CREATE POLICY p ON app.t USING (false)'],
      ['DROP POLICY p ON app.t'],
    );
    const now = object('policy app.t.p', 'policy', ['CREATE POLICY p ON app.t USING (true)'], []);
    const { steps } = objectSteps(model([now]), model([was]), { ...ctx, prune: false });
    expect(steps.map((s: Step) => [summarize(s), hazardsOf(s)])).toEqual([
      ['drop policy app.t.p (to create it again)', ['weakens_security']],
      ['create again policy app.t.p', []],
    ]);
  });

  it('--allow-hazards knows the new names', () => {
    expect([
      ...parseHazards(
        'security_definer,creates_extension,public_privileges,weakens_security,widens_access,runs_foreign_code',
      ),
    ]).toEqual([
      'security_definer',
      'creates_extension',
      'public_privileges',
      'weakens_security',
      'widens_access',
      'runs_foreign_code',
    ]);
  });
});

describe('data-loss hazards', () => {
  // PostgreSQL's own rules: a binary-coercible change whose length coercion is a no-op does not
  // rewrite (pinned against a server in test/integration/plan-truth.test.ts).
  it.each([
    ['numeric(12,2)', 'integer', true, true],
    ['numeric', 'bigint', true, true],
    ['numeric(12,2)', 'numeric(10,2)', true, true],
    ['numeric(12,2)', 'numeric(12,1)', true, true],
    ['numeric(12,2)', 'numeric(14,3)', false, true],
    ['numeric(12,2)', 'numeric(14,2)', false, false],
    ['numeric(12,2)', 'numeric', false, false],
    ['bigint', 'numeric(20,0)', false, true],
    ['bigint', 'numeric(18,0)', true, true],
    ['integer', 'numeric(12,2)', false, true],
    ['double precision', 'integer', true, true],
    ['double precision', 'real', true, true],
    ['timestamp with time zone', 'date', true, true],
    ['timestamp without time zone', 'date', true, true],
    ['timestamp without time zone', 'timestamp with time zone', true, false],
    ['timestamp(3) without time zone', 'timestamp(6) without time zone', false, false],
    ['character varying(20)', 'character varying(5)', true, true],
    ['text', 'character varying(5)', true, true],
    ['text', 'character varying', false, false],
    ['text', 'character(3)', true, true],
    ['bigint', 'integer', true, true],
    ['integer', 'smallint', true, true],
    ['integer', 'bigint', false, true],
    ['smallint', 'numeric', false, true],
    ['real', 'double precision', false, true],
    ['character varying(5)', 'character varying(20)', false, false],
    ['character varying(5)', 'character varying', false, false],
    ['character varying(5)', 'text', false, false],
    ['character(5)', 'character(8)', false, true],
    ['date', 'timestamp with time zone', false, true],
  ])('%s -> %s: lossy %s, rewrites %s', (from, to, lossy, rewrites) => {
    const s: Step = { kind: 'alter_column_type', table, column: 'amount', from, type: to };
    expect(hazardsOf(s)).toEqual([...(rewrites ? ['rewrites_table'] : []), ...(lossy ? ['drops_data'] : [])]);
  });

  it('a USING rewrites and may lose what it converts', () => {
    const s: Step = {
      kind: 'alter_column_type',
      table,
      column: 'amount',
      from: 'text',
      type: 'text',
      using: 'upper(amount)',
    };
    expect(hazardsOf(s)).toEqual(['rewrites_table', 'drops_data']);
  });

  it('a lossy type change names its column', () => {
    const s: Step = { kind: 'alter_column_type', table, column: 'amount', from: 'numeric(12,2)', type: 'integer' };
    expect(summarize(s)).toBe(
      'change app.t.amount from numeric(12,2) to integer: values of amount may be rounded, truncated or refused',
    );
  });

  it('pruning a sequence, a view, an enum or a domain drops data; creating a view again does not', () => {
    expect(hazardsOf({ kind: 'drop_sequence', sequence: { schema: 'app', name: 's' } })).toEqual(['drops_data']);
    const drop = (objectKind: SqlObject['kind'], reason: 'prune' | 'recreate'): Step => ({
      kind: 'drop_object',
      object: `${objectKind} app.x`,
      objectKind,
      statements: [],
      reason,
    });
    for (const k of ['view', 'materialized view', 'enum', 'domain', 'composite type'] as const)
      expect(hazardsOf(drop(k, 'prune'))).toEqual(['drops_data']);
    expect(hazardsOf(drop('view', 'recreate'))).toEqual([]);
    expect(hazardsOf(drop('index', 'prune'))).toEqual([]);
  });
});

describe('statements read without parsing', () => {
  // A statement lacking every hazard's keyword is not parsed for hazards, nor one without CHECK
  // for an added CHECK: the same text behind a comment naming the keyword is parsed, with the
  // same meaning.
  const HAZARDOUS = [
    'CREATE FUNCTION f() RETURNS int LANGUAGE sql SECURITY DEFINER AS $$ SELECT 1 $$',
    'ALTER FUNCTION f() EXTERNAL SECURITY DEFINER',
    'create extension if not exists pg_trgm',
    'GRANT SELECT ON t TO PUBLIC',
    'ALTER DEFAULT PRIVILEGES GRANT EXECUTE ON FUNCTIONS TO public',
    // PUBLIC as a name spelt with a Unicode escape: not one letter of it in the text.
    'GRANT SELECT ON t TO U&"\\0070ublic"',
    'DROP POLICY p ON t',
    'ALTER TABLE t DISABLE ROW LEVEL SECURITY',
    'alter table t no force row level security',
  ];
  const CHECKS = [
    'ALTER TABLE t ADD CONSTRAINT c CHECK (a > 0)',
    'alter table app.t add constraint c check (a > 0) not valid',
  ];
  const same = (text: string): void => {
    expect(statementHazards([text]), text).toEqual(statementHazards([`/* public */ ${text}`]));
    expect(addedCheck(text, 'public'), text).toEqual(addedCheck(`/* check */ ${text}`, 'public'));
  };

  it('finds each hazard and CHECK that parsing finds', () => {
    for (const text of HAZARDOUS) {
      expect(statementHazards([text]), text).toHaveLength(1);
      same(text);
    }
    for (const text of CHECKS) {
      expect(addedCheck(text, 'public'), text).toBeDefined();
      same(text);
    }
  });

  it.skipIf(!existsSync(REAL_SCHEMAS_DIR))('reads every statement of the real schemas as parsing does', () => {
    let n = 0;
    for (const { texts } of realSchemaStatements())
      for (const text of texts) {
        same(text);
        n++;
      }
    expect(n).toBeGreaterThan(3_500);
  });
});
