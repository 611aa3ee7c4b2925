// Object references: built and read back by one module (src/model/object-ref.ts), in the form
// the plan, `ignore:` globs and the catalog query share.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  columnRef,
  columnRefPrefix,
  constraintRef,
  indexRef,
  parseRef,
  REF_KINDS,
  refId,
  refText,
  relationAsTable,
  relationRef,
  routineRef,
  rowRef,
  schemaRef,
  sequenceRef,
  tableRef,
  typeRef,
  withoutArgs,
} from '../../src/model/object-ref.js';

const hostile = { schema: 'My "App"', name: 'f(x).y' };

describe('object refs', () => {
  it('builds each kind from an id or a qualified name, quoted as quote.ts quotes', () => {
    expect(tableRef({ schema: 'app', name: 't' })).toBe('table app.t');
    expect(tableRef('app.t')).toBe('table app.t');
    expect(relationRef(hostile)).toBe('relation "My ""App"""."f(x).y"');
    expect(sequenceRef({ schema: 'app', name: 'S' })).toBe('sequence app."S"');
    expect(typeRef('app.e')).toBe('type app.e');
    expect(indexRef({ schema: 'public', name: 'i' })).toBe('index public.i');
    expect(routineRef('app.f(integer, text)')).toBe('routine app.f(integer, text)');
    expect(schemaRef('My App')).toBe('schema "My App"');
    expect(columnRef({ schema: 'app', name: 't' }, 'Total')).toBe('column app.t."Total"');
    expect(columnRef('app.t', 'x')).toBe('column app.t.x');
    expect(columnRef('app.t', 'x').startsWith(columnRefPrefix('app.t'))).toBe(true);
    expect(rowRef(hostile)).toBe('row "My ""App"""."f(x).y"');
    expect(constraintRef('app.t.t_check')).toBe('constraint app.t.t_check');
  });

  it('reads back the refs a view or policy names its columns and rows by, as the catalog query spells them', () => {
    for (const text of ['column app.t.x', 'column app."T"."a b"', 'row app.t', 'constraint app.t.k'])
      expect(refText(parseRef(text)!)).toBe(text);
    expect(parseRef('column app.t."a b"')).toEqual({ kind: 'column', id: 'app.t."a b"' });
  });

  it('reads a ref back, and refuses other texts', () => {
    expect(parseRef('table app.t')).toEqual({ kind: 'table', id: 'app.t' });
    expect(parseRef('schema "My App"')).toEqual({ kind: 'schema', id: '"My App"' });
    expect(parseRef('routine app.f(integer, text)')).toEqual({
      kind: 'routine',
      id: 'app.f(integer, text)',
      name: 'app.f',
      args: 'integer, text',
    });
    expect(parseRef('routine app.f')).toEqual({ kind: 'routine', id: 'app.f', name: 'app.f' });
    expect(parseRef('view app.v')).toBeUndefined();
    expect(parseRef('nothing')).toBeUndefined();
    for (const text of ['table app.t', 'relation "a b".c', 'routine app.f(int)'])
      expect(refText(parseRef(text)!)).toBe(text);
  });

  it('takes the id of a ref of one kind only', () => {
    expect(refId('relation app.t', 'relation')).toBe('app.t');
    expect(refId('table app.t', 'relation')).toBeUndefined();
    expect(relationAsTable('relation app.t')).toBe('table app.t');
    expect(relationAsTable('view app.v')).toBe('view app.v');
  });

  it('drops a routine argument list, not a parenthesis inside a quoted name', () => {
    expect(withoutArgs('routine app.f(integer)')).toBe('routine app.f');
    expect(withoutArgs('app.f')).toBe('app.f');
    expect(withoutArgs(routineRef(`${relationRef(hostile).slice('relation '.length)}(int)`))).toBe(
      'routine "My ""App"""."f(x).y"',
    );
    expect(parseRef('routine "f(x)"(int)')).toMatchObject({ name: '"f(x)"', args: 'int' });
  });

  it('lists the same kinds as the ESLint rule that refuses a ref spelled by hand', () => {
    const config = readFileSync(new URL('../../eslint.config.js', import.meta.url), 'utf8');
    const linted = /const REF_KINDS = \[([^\]]*)\]/
      .exec(config)![1]!
      .match(/'([a-z]+)'/g)!
      .map((k) => k.slice(1, -1));
    expect(linted).toEqual([...REF_KINDS]);
  });
});
