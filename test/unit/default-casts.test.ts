// Column defaults are compared as PostgreSQL stores them: a constant cast to a user's type (an
// enum) other than the column's own is a different default, a cast PostgreSQL adds itself is not.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadParser, typeFromNode, parseStatements } from '../../src/sql/pg-parse.js';
import { sameExpression } from '../../src/sql/normalize.js';

const type = (sql: string) =>
  typeFromNode(parseStatements(`CREATE TABLE t (c ${sql})`)[0].stmt.CreateStmt.tableElts[0].ColumnDef.typeName);

describe('column defaults with casts', () => {
  beforeAll(loadParser);

  it("a text column's default cast to an enum differs from the plain constant", () => {
    expect(sameExpression("'active'", "'active'::app.status", type('text'))).toBe(false);
    expect(sameExpression("'active'::status", "'active'", type('text'))).toBe(false);
    expect(sameExpression("'active'::app.status", "'active'::app.status", type('text'))).toBe(true);
    expect(sameExpression("'active'::app.other", "'active'::app.status", type('text'))).toBe(false);
  });

  it('casts PostgreSQL adds itself stay equal to the constant', () => {
    expect(sameExpression("'x'", "'x'::text", type('text'))).toBe(true);
    expect(sameExpression("'y'", "'y'::character varying", type('varchar(10)'))).toBe(true);
    expect(sameExpression("'abc'", "'abc'::bpchar", type('char(3)'))).toBe(true);
    expect(sameExpression("'2024-01-01'", "'2024-01-01'::date", type('date'))).toBe(true);
    expect(sameExpression("'{}'", "'{}'::text[]", type('text[]'))).toBe(true);
    // An enum column's own type, qualified or not; a domain column whose constant PostgreSQL prints as its base type.
    expect(sameExpression("'active'", "'active'::app.status", type('app.status'))).toBe(true);
    expect(sameExpression("'active'::status", "'active'::app.status", type('app.status'))).toBe(true);
    expect(sameExpression("'x'", "'x'::text", type('app.short_text'))).toBe(true);
  });

  it('a time constant is compared as PostgreSQL prints it back under TimeZone UTC and DateStyle ISO', () => {
    // The plan pins both where it writes the default, the catalog query where it reads it.
    const printed = "'2024-01-01 00:00:00+00'::timestamp with time zone";
    expect(sameExpression("'2024-01-01 00:00'", printed, type('timestamptz'))).toBe(true);
    expect(sameExpression("'2024-01-01'", printed, type('timestamptz'))).toBe(true);
    expect(sameExpression("'2024-01-01 01:00+01'", printed, type('timestamptz'))).toBe(true);
    expect(
      sameExpression("'2024-01-01 00:00'", "'2024-01-01 00:00:00'::timestamp without time zone", type('timestamp')),
    ).toBe(true);
    expect(sameExpression("'2024-01-01 00:00+01'", printed, type('timestamptz'))).toBe(false);
    expect(sameExpression("'2024-01-02'", printed, type('timestamptz'))).toBe(false);
    // Not a time column: the text is the value.
    expect(sameExpression("'2024-01-01 00:00'", "'2024-01-01 00:00:00+00'::text", type('text'))).toBe(false);
  });

  it('casts inside an expression are unwrapped as before', () => {
    expect(sameExpression("nextval('app.s')", "nextval('app.s'::regclass)", type('bigint'))).toBe(true);
  });
});
