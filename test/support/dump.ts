// pg_dump --schema-only of a test database, normalised for comparing two databases' schemas.
import { spawnSync } from 'node:child_process';
import type { TestDb } from './db.js';

/**
 * pg_dump --schema-only --no-owner, without comments, SET lines and blank lines; a table's
 * column lines sorted (column order is not migrated) unless `exact`, where column order counts
 * and any pg_dump warning is an error.
 */
export function schemaDump(db: TestDb, opts: { exact?: boolean } = {}): string {
  const url = new URL(db.url);
  const r = spawnSync(
    'pg_dump',
    [
      '--schema-only',
      '--no-owner',
      '-N',
      'citus_migrate',
      '-h',
      url.hostname,
      '-p',
      url.port,
      '-U',
      decodeURIComponent(url.username),
      db.name,
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) },
    },
  );
  if (r.status !== 0 || (opts.exact && r.stderr !== '')) throw new Error(r.stderr);
  const out: string[] = [];
  let table: string[] | undefined;
  for (const line of r.stdout.split('\n')) {
    if (
      line === '' ||
      line.startsWith('--') ||
      line.startsWith('SET ') ||
      line.startsWith('SELECT pg_catalog.set_config') ||
      line.startsWith('\\restrict') ||
      line.startsWith('\\unrestrict')
    )
      continue;
    if (table) {
      if (line.startsWith(')')) {
        out.push(...table.map((l) => l.replace(/,$/, '')).sort(), line);
        table = undefined;
      } else table.push(line);
    } else {
      out.push(line);
      if (!opts.exact && /^CREATE (UNLOGGED )?TABLE .* \($/.test(line)) table = [];
    }
  }
  return out.join('\n');
}
