// A large `sql:` file is read in time linear in its statements (#28.9): each statement is
// located by walking forward from the previous one, not by rereading the file from its start.
import { beforeAll, describe, expect, it } from 'vitest';
import { objectsFromSql } from '../../src/objects/from-sql.js';
import { byteLocator, lineCol } from '../../src/objects/statement-parts.js';
import { loadParser } from '../../src/sql/pg-parse.js';

beforeAll(async () => {
  await loadParser();
});

describe('locating statements in a large SQL file', () => {
  it('byteLocator gives lineCol for every offset, forward and back', () => {
    const text = '-- é\nCREATE VIEW "vé😀" AS SELECT 1;\n\n  COMMENT ON VIEW v IS \'日本\';\r\nx😀y\n';
    const bytes = Buffer.from(text, 'utf8');
    // Character boundaries only: the parser never reports an offset inside a character.
    const offsets = [...Array(bytes.length + 1).keys()].filter(
      (o) => o === bytes.length || (bytes[o]! & 0xc0) !== 0x80,
    );
    const locate = byteLocator(bytes);
    expect(offsets.map((o) => locate(o))).toEqual(offsets.map((o) => lineCol(text, o)));
    expect([...offsets].reverse().map((o) => locate(o))).toEqual([...offsets].reverse().map((o) => lineCol(text, o)));
  });

  // Time is only a hang guard: before the fix this file took 25–46 s (quadratic), now about a second.
  it('reads a file of 20,000 statements and locates the last one', { timeout: 20_000 }, () => {
    const text = Array.from({ length: 20_000 }, (_, i) =>
      i % 2 === 0 ? `-- é ${i}\nCREATE VIEW v${i} AS SELECT ${i} AS x;` : `COMMENT ON VIEW v${i - 1} IS 'é';`,
    ).join('\n');
    const out = objectsFromSql([{ file: 'big.sql', text }], 'public', () => '');
    expect(out.problems).toEqual([]);
    expect(Object.keys(out.objects)).toHaveLength(20_000);
    expect(out.objects['comment on view public.v19998']?.source).toBe('big.sql:30000:1');
    expect(out.objects['view public.v19998']?.source).toBe('big.sql:29999:1');
  });
});
