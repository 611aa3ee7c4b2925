// What the parser answered for a type or a default is remembered (each call crosses into WASM, and
// a schema spells the same few over and over): a remembered answer is the same answer, a caller
// cannot change it for the next one, and a refusal is never remembered as a success.
import { beforeAll, describe, expect, it } from 'vitest';
import { checkExpression, loadParser, parseTypeText } from '../../src/sql/pg-parse.js';

describe('remembered parses', () => {
  beforeAll(loadParser);

  it('a type parsed twice gives equal, separate answers', () => {
    const a = parseTypeText('varchar(10)[]');
    const b = parseTypeText('varchar(10)[]');
    expect(b).toEqual({ base: 'character varying[]', sql: 'character varying(10)[]', serial: false });
    expect(b).toEqual(a);
    (a as { sql: string }).sql = 'changed';
    expect(parseTypeText('varchar(10)[]').sql).toBe('character varying(10)[]');
  });

  it('a refused default is refused every time; an accepted one stays accepted', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => checkExpression('0 --')).toThrow('ends in a -- comment');
      expect(() => checkExpression('1, 2')).toThrow('not a single expression');
      expect(() => checkExpression("'a--b'")).not.toThrow();
      expect(() => checkExpression('now()')).not.toThrow();
    }
  });
});
