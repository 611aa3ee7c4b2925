// Objects of the sql: files read from statements of their own (objects/more-objects.ts): extended
// statistics, collations, publications, foreign servers and foreign tables, with what each names
// and needs, and the forms refused with a reason.
import { beforeAll, describe, expect, it } from 'vitest';
import { objectsFromSql } from '../../src/objects/from-sql.js';
import { loadParser } from '../../src/sql/pg-parse.js';

beforeAll(async () => {
  await loadParser();
});

const read = (text: string) => objectsFromSql([{ file: 'x.sql', text }], 'app', () => '');

describe('objects of their own statements', () => {
  it('reads each kind under its id, with its parent, what it provides and what it needs', () => {
    const { objects, problems } =
      read(`CREATE COLLATION nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE STATISTICS st (dependencies) ON a, b FROM t;
ALTER STATISTICS st SET STATISTICS 200;
COMMENT ON STATISTICS st IS 'pair';
CREATE PUBLICATION "Feed" FOR TABLE t WITH (publish = 'insert');
ALTER PUBLICATION "Feed" ADD TABLE u;
CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
COMMENT ON SERVER files IS 'local files';
CREATE FOREIGN TABLE imports (id bigint NOT NULL, name text DEFAULT 'x') SERVER files OPTIONS (filename '/dev/null');
COMMENT ON FOREIGN TABLE imports IS 'from a file';
`);
    expect(problems).toEqual([]);
    const o = (id: string) => objects[id]!;
    expect(Object.keys(objects).sort()).toEqual([
      'collation app.nocase',
      'comment on foreign table app.imports',
      'comment on server files',
      'comment on statistics app.st',
      'foreign server files',
      'foreign table app.imports',
      'publication "Feed"',
      'statistics object app.st',
    ]);
    expect(o('collation app.nocase').provides).toEqual(['collation app.nocase']);
    expect(o('statistics object app.st').parent).toBe('relation app.t');
    expect(o('statistics object app.st').create).toHaveLength(2);
    expect(o('publication "Feed"').create).toHaveLength(2);
    expect(o('foreign table app.imports').provides).toEqual(['relation app.imports']);
    expect(o('foreign table app.imports').deps).toContain('server files');
    expect(o('comment on server files').parent).toBe('server files');
  });

  it('refuses a statistics object without a name, and a foreign table with its CHECKs inline, saying how to write them', () => {
    const unnamed = read('CREATE STATISTICS ON a, b FROM t;').problems;
    expect(unnamed.map((p) => p.message).join()).toContain('a statistics object needs a name here');
    const inline = read(
      "CREATE FOREIGN TABLE f (q integer CHECK (q > 0)) SERVER s OPTIONS (filename '/dev/null');",
    ).problems;
    expect(inline.map((p) => p.message).join()).toContain('ALTER TABLE name ADD CONSTRAINT c CHECK');
  });
});
