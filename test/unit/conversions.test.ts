// Encoding conversions in sql: files (CREATE [DEFAULT] CONVERSION): named by schema and name,
// compared with what the catalog prints (the function qualified, encodings in upper case).
import { beforeAll, describe, expect, it } from 'vitest';
import { objectsFromSql } from '../../src/objects/from-sql.js';
import { objectKey } from '../../src/objects/key.js';
import { loadParser } from '../../src/sql/pg-parse.js';

beforeAll(async () => {
  await loadParser();
});

describe('a conversion', () => {
  it('is read with its comment, and needs a function of another schema than pg_catalog', () => {
    const { objects, problems } = objectsFromSql(
      [
        {
          file: 'c.sql',
          text: `CREATE DEFAULT CONVERSION latin1_utf8 FOR 'latin1' TO 'utf8' FROM iso8859_1_to_utf8;
CREATE CONVERSION conv2 FOR 'UTF8' TO 'LATIN1' FROM codecs.utf8_to_latin1;
COMMENT ON CONVERSION latin1_utf8 IS 'legacy clients';
`,
        },
      ],
      'app',
      () => '',
    );
    expect(problems).toEqual([]);
    expect(Object.keys(objects).sort()).toEqual([
      'comment on conversion app.latin1_utf8',
      'conversion app.conv2',
      'conversion app.latin1_utf8',
    ]);
    expect(objects['conversion app.latin1_utf8']!.deps).toEqual([]);
    expect(objects['conversion app.conv2']!.deps).toContain('routine codecs.utf8_to_latin1');
    expect(objects['comment on conversion app.latin1_utf8']!.parent).toBe('conversion app.latin1_utf8');
  });

  it("as written equals the catalog's form; DEFAULT, encodings and the function count", () => {
    const catalog = (text: string) => objectKey([text], 'public');
    const declared = objectKey([`CREATE DEFAULT CONVERSION c FOR 'latin1' TO 'utf8' FROM iso8859_1_to_utf8`], 'app');
    expect(declared).toBe(
      catalog(`CREATE DEFAULT CONVERSION app.c FOR 'LATIN1' TO 'UTF8' FROM pg_catalog.iso8859_1_to_utf8`),
    );
    expect(declared).not.toBe(
      catalog(`CREATE CONVERSION app.c FOR 'LATIN1' TO 'UTF8' FROM pg_catalog.iso8859_1_to_utf8`),
    );
    expect(declared).not.toBe(
      catalog(`CREATE DEFAULT CONVERSION app.c FOR 'LATIN2' TO 'UTF8' FROM pg_catalog.iso8859_1_to_utf8`),
    );
    expect(declared).not.toBe(
      catalog(`CREATE DEFAULT CONVERSION app.c FOR 'LATIN1' TO 'UTF8' FROM app.iso8859_1_to_utf8`),
    );
  });
});
