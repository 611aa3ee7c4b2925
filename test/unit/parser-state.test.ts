// The parser is an explicit precondition, not hidden state: without it, comparisons fail loudly
// instead of falling back to comparing text; parse failures carry byte positions like every
// location of the parse tree, so a routine file's error column is right after non-ASCII text.
import { describe, expect, it, vi } from 'vitest';

describe('the SQL parser as a dependency', () => {
  it('comparing expressions before loadParser throws instead of comparing text', async () => {
    vi.resetModules();
    const { sameExpression } = await import('../../src/sql/normalize.js');
    expect(() => sameExpression("'x'", "'x'::text")).toThrow('the SQL parser is not loaded (call loadParser first)');
    const { compareRoutines } = await import('../../src/sql/normalize.js');
    expect(() => compareRoutines('CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$', 'x')).toThrow(
      'not loaded',
    );
  });

  it('once loaded, a cast of a constant is the same expression', async () => {
    const { loadParser } = await import('../../src/sql/pg-parse.js');
    const { sameExpression } = await import('../../src/sql/normalize.js');
    await loadParser();
    expect(sameExpression("'x'", "'x'::text")).toBe(true);
    expect(sameExpression('1 +', '1')).toBe(false); // a parse failure: not the same
  });

  it('reports a parse failure at a byte offset, also after non-ASCII text', async () => {
    const { loadParser, parseStatements, ParseFailure } = await import('../../src/sql/pg-parse.js');
    await loadParser();
    const sql = "SELECT 'ééé' FROM WHERE";
    let failure: unknown;
    try {
      parseStatements(sql);
    } catch (e) {
      failure = e;
    }
    expect(failure).toBeInstanceOf(ParseFailure);
    expect((failure as InstanceType<typeof ParseFailure>).position).toBe(Buffer.byteLength("SELECT 'ééé' FROM "));
  });

  it('a routine file with a syntax error after non-ASCII text: file:line:col in characters', async () => {
    const { loadManifestText } = await import('../../src/manifest/load.js');
    const files: Record<string, string> = {
      '/p/r.sql': "-- café\nCREATE FUNCTION f() RETURNS text LANGUAGE sql AS $$ SELECT 'é' $$ STRICT STRICT WHERE;\n",
    };
    const fs = { readFile: (p: string) => files[p]!, size: () => 1 };
    const err = (await loadManifestText('version: 1\nroutines:\n  f: { file: r.sql }\n', 'm.yaml', '/p', fs).catch(
      (e: unknown) => e,
    )) as { problems: { message: string }[] };
    const line2 = files['/p/r.sql']!.split('\n')[1]!;
    expect(err.problems[0]!.message).toBe(`r.sql:2:${line2.indexOf('WHERE') + 1}: syntax error at or near "WHERE"`);
  });
});
