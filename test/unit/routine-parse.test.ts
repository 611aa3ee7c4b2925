// Routine files are read with PostgreSQL's parser: signature, kind, modes, language, inlining.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { liveToManifest, routineSignature } from '../../src/introspect/to-manifest.js';
import type { LiveState } from '../../src/introspect/to-model.js';
import { load } from '../support/manifest.js';
import { loadParser, parseTypeText } from '../../src/sql/pg-parse.js';
import { identityArgs, parseRoutineSql, parseSignature } from '../../src/sql/routine-parse.js';

beforeAll(loadParser);

describe('parseRoutineSql', () => {
  it('reads a procedure with IN, INOUT and defaults', () => {
    const r = parseRoutineSql(`-- leading comment
CREATE OR REPLACE PROCEDURE app."NewOrd"(no_w_id integer, INOUT total numeric(12,2), OUT note varchar, tstamp timestamp DEFAULT now())
LANGUAGE plpgsql AS $$ BEGIN total := 0; END $$; -- trailing comment`);
    expect(r).toMatchObject({
      schema: 'app',
      name: 'NewOrd',
      kind: 'procedure',
      language: 'plpgsql',
      replace: true,
      inlinable: false,
    });
    expect(r.args.map((a) => [a.mode, a.name, a.type.sql, a.hasDefault])).toEqual([
      ['in', 'no_w_id', 'integer', false],
      ['inout', 'total', 'numeric(12,2)', false],
      ['out', 'note', 'character varying', false],
      ['in', 'tstamp', 'timestamp without time zone', true],
    ]);
    // proargtypes (and regprocedure) leave OUT arguments out, for procedures too.
    expect(identityArgs(r.args).map((a) => a.type.base)).toEqual(['integer', 'numeric', 'timestamp without time zone']);
    expect(r.statement.endsWith('END $$')).toBe(true);
  });

  it("leaves a function's OUT arguments out of its signature", () => {
    const r = parseRoutineSql(
      'CREATE FUNCTION f(a int, OUT b int, OUT c text) LANGUAGE sql AS $$ SELECT 1, $q$x$q$ $$;',
    );
    expect(identityArgs(r.args).map((a) => a.type.base)).toEqual(['integer']);
  });

  it('spots inlinable SQL functions', () => {
    expect(parseRoutineSql('CREATE FUNCTION f(w int) RETURNS int LANGUAGE sql AS $$ SELECT w $$').inlinable).toBe(true);
    expect(parseRoutineSql('CREATE FUNCTION f(w int) RETURNS int LANGUAGE sql RETURN w + 1').inlinable).toBe(true);
    expect(
      parseRoutineSql('CREATE FUNCTION f(w int) RETURNS int LANGUAGE sql SECURITY DEFINER AS $$ SELECT w $$').inlinable,
    ).toBe(false);
    expect(parseRoutineSql('CREATE FUNCTION f(w int) RETURNS SETOF int LANGUAGE sql AS $$ SELECT w $$').inlinable).toBe(
      false,
    );
    expect(
      parseRoutineSql('CREATE FUNCTION f(w int) RETURNS SETOF int LANGUAGE sql STABLE AS $$ SELECT w $$').inlinable,
    ).toBe(true);
    expect(
      parseRoutineSql('CREATE FUNCTION f(w int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN w; END $$').inlinable,
    ).toBe(false);
  });

  it('refuses what is not one CREATE FUNCTION/PROCEDURE', () => {
    expect(() => parseRoutineSql('')).toThrow('holds no statement');
    expect(() => parseRoutineSql('CREATE TABLE t (a int)')).toThrow(
      'is a CreateStmt; expected CREATE FUNCTION or CREATE PROCEDURE',
    );
    expect(() => parseRoutineSql('CREATE FUNCTION f() RETURNS int AS $$ SELECT 1 $$')).toThrow(
      'has no LANGUAGE clause',
    );
  });
});

describe('signatures and types', () => {
  it('parses a bare signature and canonicalises types', () => {
    const s = parseSignature(
      'app.payment(int, int4, integer, varchar(16), char(2), double precision, timestamptz, "MyType", text[])',
    );
    expect(s.schema).toBe('app');
    expect(s.argTypes.map((t) => t.base)).toEqual([
      'integer',
      'integer',
      'integer',
      'character varying',
      'character',
      'double precision',
      'timestamp with time zone',
      '"MyType"',
      'text[]',
    ]);
  });

  it('refuses a signature without parentheses or with junk', () => {
    expect(() => parseSignature('payment')).toThrow('not a signature: expected name(type, ...)');
    expect(() => parseSignature('payment(int); DROP TABLE x')).toThrow('not a signature');
  });

  it('renders column types with modifiers', () => {
    expect(parseTypeText('numeric(12,2)').sql).toBe('numeric(12,2)');
    expect(parseTypeText('timestamp(3) with time zone').sql).toBe('timestamp(3) with time zone');
    expect(parseTypeText('bigserial')).toEqual({ base: 'bigint', sql: 'bigserial', serial: true });
    expect(parseTypeText('serial4')).toEqual({ base: 'integer', sql: 'serial', serial: true });
    expect(parseTypeText('varchar(10)[]').sql).toBe('character varying(10)[]');
  });
});

describe('routineSignature (what introspect writes)', () => {
  it('quotes reserved words and names that need it, so the signature reads back', () => {
    expect(routineSignature('select', ['integer'])).toBe('"select"(integer)');
    expect(routineSignature('Do Thing', ['bigint', 'text'])).toBe('"Do Thing"(bigint, text)');
    expect(routineSignature('payment', [])).toBe('payment()');
    expect(parseSignature(routineSignature('select', ['integer', 'character varying']))).toMatchObject({
      name: 'select',
      argTypes: [{ base: 'integer' }, { base: 'character varying' }],
    });
  });

  it('reads back as the same name for any routine name (property)', () => {
    const name = fc
      .oneof(
        fc.string({ minLength: 1, maxLength: 20, unit: 'binary' }),
        fc.constantFrom('select', 'user', 'table', 'from', 'a"b', 'x: y'),
      )
      .filter((s) => !s.includes('\u0000') && Buffer.byteLength(s) <= 63);
    fc.assert(
      fc.property(name, (n) => {
        expect(parseSignature(routineSignature(n, ['bigint'])).name).toBe(n);
      }),
      { numRuns: 500 },
    );
  });
});

describe('liveToManifest header', () => {
  it('keeps a database name with a line break inside the comment', async () => {
    const live = {
      model: { schemas: ['public'], tables: {}, groups: {}, sequences: {}, routines: {}, objects: {} },
      citus: false,
      fingerprint: '',
      objects: {},
      doc: { server: { database: 'shop\nversion: 2', version: '15.4 (Debian)', versionNum: 150004, citus: null } },
    } as unknown as LiveState;
    const text = liveToManifest(live);
    expect(text).toBe(
      '# Written by citus-migrate introspect from shop\n#version: 2 (PostgreSQL 15.4, no Citus).\n\nversion: 1\ndefaults:\n  schema: public\n  shard_count: 32\n',
    );
    expect((await load(text)).manifest.version).toBe(1);
  });
});
