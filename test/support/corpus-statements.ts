// Every statement of the real schemas in ../shared/corpora (as PostgreSQL's parser splits them):
// what tests of statement-level shortcuts check themselves against.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tryParseStatements } from '../../src/sql/pg-parse.js';

export const REAL_SCHEMAS_DIR = join(new URL('../..', import.meta.url).pathname, '../shared/corpora/real-schemas');

/** Each schema's statements (the parser loaded first); files that do not parse are left out. */
export function realSchemaStatements(): { name: string; texts: string[] }[] {
  if (!existsSync(REAL_SCHEMAS_DIR)) return [];
  const out: { name: string; texts: string[] }[] = [];
  for (const name of readdirSync(REAL_SCHEMAS_DIR).sort()) {
    const file = join(REAL_SCHEMAS_DIR, name, 'schema.sql');
    if (!existsSync(file)) continue;
    // Without psql's meta-commands (\connect, \set …); a file that still does not parse is left out.
    const bytes = Buffer.from(
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => !l.startsWith('\\'))
        .join('\n'),
    );
    const stmts = tryParseStatements(bytes.toString('utf8'));
    if (!stmts) continue;
    const texts = stmts.map((s: { stmt_location?: number; stmt_len?: number }) =>
      bytes.subarray(s.stmt_location ?? 0, (s.stmt_location ?? 0) + (s.stmt_len || bytes.length)).toString('utf8'),
    );
    out.push({ name, texts });
  }
  return out;
}
