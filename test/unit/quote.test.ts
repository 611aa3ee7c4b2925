// The quoting module against PostgreSQL's own grammar: whatever the name, the parser reads back
// exactly that name, and nothing else.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadParser, parseStatements } from '../../src/sql/pg-parse.js';
import {
  formatQualifiedKey,
  parseQualifiedKey,
  quoteIdent,
  quoteLiteral,
  quoteQualified,
  quoteRegclass,
} from '../../src/sql/quote.js';

beforeAll(loadParser);

describe('quoteIdent', () => {
  it.each([
    ['warehouse', 'warehouse'],
    ['w_id$2', 'w_id$2'],
    ['select', '"select"'],
    ['user', '"user"'],
    ['Order Lines', '"Order Lines"'],
    ['MixedCase', '"MixedCase"'],
    ['say "hi"', '"say ""hi"""'],
    ["'); DROP TABLE x; --", `"'); DROP TABLE x; --"`],
    ['größe', '"größe"'],
    ['1abc', '"1abc"'],
  ])('%s -> %s', (name, quoted) => expect(quoteIdent(name)).toBe(quoted));

  it('refuses empty names and NUL', () => {
    expect(() => quoteIdent('')).toThrow('identifier is empty');
    expect(() => quoteIdent('a\u0000b')).toThrow('NUL');
  });

  it('reads back as the same name for any identifier (property)', () => {
    const ident = fc
      .string({ minLength: 1, maxLength: 20, unit: 'binary' })
      .filter((s) => !s.includes('\u0000') && Buffer.byteLength(s) <= 63);
    fc.assert(
      fc.property(ident, (name) => {
        const stmts = parseStatements(`SELECT 1 AS ${quoteIdent(name)}`);
        expect(stmts).toHaveLength(1);
        expect(stmts[0].stmt.SelectStmt.targetList[0].ResTarget.name).toBe(name);
      }),
      { numRuns: 500 },
    );
  });
});

describe('quoteLiteral', () => {
  it.each([
    ['plain', "'plain'"],
    ["it's", "'it''s'"],
    ['back\\slash', "E'back\\\\slash'"],
    ["'); DROP TABLE x; --", "'''); DROP TABLE x; --'"],
  ])('%s -> %s', (value, lit) => expect(quoteLiteral(value)).toBe(lit));

  it('reads back as the same string for any text (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40, unit: 'binary' }).filter((s) => !s.includes('\u0000')),
        (value) => {
          const stmts = parseStatements(`SELECT ${quoteLiteral(value)}`);
          const c = stmts[0].stmt.SelectStmt.targetList[0].ResTarget.val.A_Const;
          expect(c.sval?.sval ?? '').toBe(value);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('qualified names', () => {
  it('quotes each part and the regclass literal', () => {
    expect(quoteQualified({ schema: 'App', name: 'Order Lines' })).toBe('"App"."Order Lines"');
    expect(quoteRegclass({ schema: 'public', name: "it's" })).toBe(`'public."it''s"'`);
  });

  it.each([
    ['orders', { schema: 'public', name: 'orders' }],
    ['app.orders', { schema: 'app', name: 'orders' }],
    ['App.Orders', { schema: 'App', name: 'Orders' }],
    ['"my.schema"."t"', { schema: 'my.schema', name: 't' }],
    ['"a""b"', { schema: 'public', name: 'a"b' }],
    ['a.b.c', { error: 'has more than two dotted parts (expected name or schema.name)' }],
    ['a.', { error: 'has an empty name part' }],
    ['"x', { error: 'has an unterminated double quote' }],
  ])('parses key %s', (key, expected) => expect(parseQualifiedKey(key, 'public')).toEqual(expected));

  it.each([
    [{ schema: 'public', name: 'orders' }, 'orders'],
    [{ schema: 'public', name: 'a"b' }, '"a""b"'],
    [{ schema: 'public', name: 'a.b' }, '"a.b"'],
    [{ schema: 'app', name: 'Order Lines' }, 'app.Order Lines'],
    [{ schema: 'my.schema', name: 'x: y' }, '"my.schema".x: y'],
  ])('formats key %o as %s', (q, key) => expect(formatQualifiedKey(q, 'public')).toBe(key));

  it('formats any qualified name as a key that parses back to it (property)', () => {
    const part = fc
      .oneof(
        fc.string({ minLength: 1, maxLength: 12, unit: 'binary' }),
        fc.constantFrom('"', '.', '"."', 'a"b', 'a.b', '""', ' x ', 'public'),
      )
      .filter((s) => !s.includes('\u0000'));
    fc.assert(
      fc.property(part, part, fc.constantFrom('public', 'app', 'a.b'), (schema, name, defaultSchema) => {
        expect(parseQualifiedKey(formatQualifiedKey({ schema, name }, defaultSchema), defaultSchema)).toEqual({
          schema,
          name,
        });
      }),
      { numRuns: 2000 },
    );
  });
});
