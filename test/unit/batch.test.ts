// Which statements may share one message (batch.ts's scan) and how the transaction is cut into
// messages (batches.ts): a step that may run long goes alone.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { singleStatement } from '../../src/apply/batch.js';
import { loadParser, parseStatements } from '../../src/sql/pg-parse.js';
import { REAL_SCHEMAS_DIR, realSchemaStatements } from '../support/corpus-statements.js';
import { batches } from '../../src/apply/batches.js';
import type { PlanDocument, PlanStep } from '../../src/plan/plan.js';

describe('singleStatement', () => {
  it('finds one statement through quotes, dollar quotes, comments and quoted identifiers', () => {
    for (const sql of [
      'CREATE TABLE app.t (id bigint)',
      'CREATE TABLE app.t (id bigint);',
      'CREATE TABLE app.t (id bigint); -- done',
      "COMMENT ON TABLE app.t IS 'a; b'",
      "COMMENT ON TABLE app.t IS 'it''s; here'",
      "COMMENT ON TABLE app.t IS E'a\\'; b'",
      'CREATE TABLE "a;b" ("x""; y" int)',
      'CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$',
      'CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $body$ BEGIN RETURN $$;$$; END $body$',
      'SELECT 1 /* a; /* nested; */ b; */',
      'SELECT 1 -- a; b\n',
      'PREPARE p AS SELECT $1; ',
      'SELECT a$b FROM t',
    ])
      expect(singleStatement(sql), sql).toBe(true);
  });

  it('is false for two statements, none, or what it cannot be sure of', () => {
    for (const sql of [
      'SELECT 1; SELECT 2',
      'SET LOCAL search_path TO public; CREATE VIEW v AS SELECT 1',
      '',
      '  -- only a comment',
      ';',
      "SELECT 'unterminated",
      'SELECT $$ unterminated',
      'SELECT 1 /* unterminated',
      'SELECT "unterminated',
      // A backslash in a standard string: what it means depends on standard_conforming_strings.
      "SELECT 'a\\'; SELECT 2 --'",
    ])
      expect(singleStatement(sql), sql).toBe(false);
  });
});

const step = (index: number, kind: string, object: string, sql: string[], extra: object = {}): PlanStep =>
  ({
    index,
    kind,
    phase: 'tables',
    object,
    summary: `${kind} ${object}`,
    hazards: [],
    sql,
    step: { kind, ...extra },
  }) as unknown as PlanStep;

const planOf = (steps: PlanStep[], citus: string | null = null): PlanDocument =>
  ({
    source: { kind: 'live', fingerprint: '', server: { citus } },
    transaction: { begin: 'BEGIN', preamble: [], steps, commit: 'COMMIT' },
    afterCommit: [],
  }) as unknown as PlanDocument;

const table = (schema: string, name: string) => ({ table: { schema, name } });

describe('batches', () => {
  it('batches steps on tables this transaction creates; one on a table that held rows goes alone', () => {
    const plan = planOf([
      step(1, 'create_table', 'table app.t', ['CREATE TABLE app.t (id int)'], table('app', 't')),
      step(2, 'create_index', 'table app.t', ['CREATE INDEX t_id ON app.t (id)'], table('app', 't')),
      step(3, 'create_index', 'table app.old', ['CREATE INDEX old_id ON app.old (id)'], table('app', 'old')),
      step(
        4,
        'create_object',
        'check constraint app.t.t_id',
        ['SET LOCAL search_path TO public', 'ALTER TABLE app.t ADD CONSTRAINT t_id CHECK (id > 0)'],
        {
          object: 'check constraint app.t.t_id',
          objectKind: 'check constraint',
        },
      ),
      step(5, 'create_object', 'check constraint app.old.c', ['ALTER TABLE app.old ADD CONSTRAINT c CHECK (id > 0)'], {
        object: 'check constraint app.old.c',
        objectKind: 'check constraint',
      }),
      step(
        6,
        'create_object',
        'trigger app.old.tr',
        ['CREATE TRIGGER tr BEFORE INSERT ON app.old FOR EACH ROW EXECUTE FUNCTION f()'],
        {
          object: 'trigger app.old.tr',
          objectKind: 'trigger',
        },
      ),
      step(7, 'create_object', 'materialized view app.mv', ['CREATE MATERIALIZED VIEW app.mv AS SELECT 1'], {
        object: 'materialized view app.mv',
        objectKind: 'materialized view',
      }),
    ]);
    expect(batches(plan, ['SET LOCAL lock_timeout = 5000']).map((b) => b.map((u) => u.step?.index ?? 0))).toEqual([
      [0, 1, 2],
      [3],
      [4, 4],
      [5],
      [6],
      [7],
    ]);
  });

  it("an index of the sql: files: batched on a table this transaction creates (read by PostgreSQL's parser), alone on another", async () => {
    await loadParser();
    const index = (i: number, sql: string, searchPath?: string) =>
      step(i, 'create_object', `index app.i${i}`, [sql], {
        object: `app.i${i}`,
        objectKind: 'index',
        statements: [sql],
        ...(searchPath ? { searchPath } : {}),
      });
    const plan = planOf([
      step(1, 'create_table', 'table app.t', ['CREATE TABLE app.t (id int)'], table('app', 't')),
      index(2, 'CREATE INDEX i2 ON app.t (lower(id::text))'),
      index(3, 'CREATE INDEX i3 ON t (id) WHERE id > 0', 'app'),
      index(4, 'CREATE INDEX i4 ON app.old (id)'),
      index(5, 'CREATE INDEX i5 ON t (id)'),
    ]);
    expect(batches(plan, []).map((b) => b.map((u) => u.step?.index))).toEqual([[1, 2, 3], [4], [5]]);
  });

  it('with Citus in the database, or created by the plan, sends every statement alone', () => {
    const steps = [
      step(1, 'create_table', 'table app.t', ['CREATE TABLE app.t (id int)'], table('app', 't')),
      step(2, 'create_index', 'table app.t', ['CREATE INDEX t_id ON app.t (id)'], table('app', 't')),
    ];
    expect(batches(planOf(steps), []).map((b) => b.length)).toEqual([2]);
    expect(batches(planOf(steps, '13.2-1'), ['SET LOCAL lock_timeout = 5000']).map((b) => b.length)).toEqual([1, 1, 1]);
    const creating = [
      step(0, 'create_object', 'extension citus', ['CREATE EXTENSION citus'], {
        object: 'citus',
        objectKind: 'extension',
      }),
      ...steps,
    ];
    expect(batches(planOf(creating), []).map((b) => b.length)).toEqual([1, 1, 1]);
  });

  it('sends alone what is not surely one statement, and cuts batches at 500 statements', () => {
    const many = Array.from({ length: 600 }, (_, i) =>
      step(i + 1, 'create_table', `table app.t${i}`, [`CREATE TABLE app.t${i} (id int)`], table('app', `t${i}`)),
    );
    many.splice(10, 0, step(0, 'create_schema', 'schema x', ['CREATE SCHEMA x; CREATE SCHEMA y']));
    expect(batches(planOf(many), []).map((b) => b.length)).toEqual([10, 1, 500, 90]);
  });
});

describe("singleStatement against PostgreSQL's own parser", () => {
  it.skipIf(!existsSync(REAL_SCHEMAS_DIR))(
    'agrees on every statement of the real schemas, and on each two joined',
    async () => {
      await loadParser();
      let single = 0;
      let unsure = 0;
      const schemas = realSchemaStatements();
      for (const { name, texts } of schemas)
        texts.forEach((text, i) => {
          expect(parseStatements(text)).toHaveLength(1);
          if (singleStatement(text)) single++;
          else unsure++;
          // Never one where PostgreSQL reads two.
          if (i > 0)
            expect(singleStatement(`${texts[i - 1]}\n;\n${text}`), `${name}: ${text.slice(0, 80)}`).toBe(false);
        });
      // What it is unsure of (a backslash in a standard string) is rare: sent alone, it only costs a round trip.
      expect(schemas.length).toBeGreaterThanOrEqual(9);
      expect(single).toBeGreaterThan(3_500);
      expect(unsure / (single + unsure)).toBeLessThan(0.01);
    },
  );
});
