// A definition PostgreSQL prints back so that it reads as another: EXTRACT's field.

/**
 * PostgreSQL prints `extract('YEAR' from x)` back as `EXTRACT(YEAR FROM x)`, which its parser
 * reads as 'year': a field not in lower case is written as the string it is, so the definition
 * makes the same expression again.
 */
export const extractFields = (sql: string): string =>
  sql.replace(/\bEXTRACT\(([A-Za-z_][A-Za-z0-9_]*) FROM /g, (all, f: string) =>
    f === f.toLowerCase() ? all : `EXTRACT('${f}' FROM `,
  );
