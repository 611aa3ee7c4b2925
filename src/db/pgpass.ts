// The password file libpq reads (PGPASSFILE, else ~/.pgpass), read by us: node-postgres's own
// support prints a deprecation warning on every connection and reads process.env only.
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface PgpassKey {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
}

/** Splits a line on unescaped colons, undoing `\:` and `\\`. */
function fields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '\\' && i + 1 < line.length) cur += line[++i];
    else if (ch === ':') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** The password of the first line matching key (libpq's rules: `*` matches anything), or undefined. */
export function pgpassLookup(text: string, key: PgpassKey): string | undefined {
  const wanted = [key.host, String(key.port), key.database, key.user];
  for (const raw of text.split(/\r?\n/)) {
    if (raw.trim() === '' || raw.startsWith('#')) continue;
    const f = fields(raw);
    if (f.length < 5) continue;
    // libpq: "localhost" in the file also matches a Unix-socket connection.
    const matches = wanted.every(
      (w, i) => f[i] === '*' || f[i] === w || (i === 0 && f[i] === 'localhost' && w.startsWith('/')),
    );
    if (matches) return f.slice(4).join(':');
  }
  return undefined;
}

/** Reads the password file named by the environment, as libpq would; undefined when none applies. */
export function pgpassPassword(key: PgpassKey, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const file = env.PGPASSFILE || join(env.HOME || homedir(), '.pgpass');
  try {
    const st = statSync(file);
    // libpq ignores a password file that others can read (and says so); so do we.
    if (!st.isFile() || (process.platform !== 'win32' && (st.mode & 0o077) !== 0)) return undefined;
    return pgpassLookup(readFileSync(file, 'utf8'), key);
  } catch {
    return undefined;
  }
}
