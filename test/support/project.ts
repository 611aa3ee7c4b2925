// Temporary project folders for CLI tests: a manifest (and the files it names) in a new folder.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** One local table with a key: the smallest manifest an apply does something with. */
export const ACCOUNTS_MANIFEST = `version: 1
tables:
  accounts:
    local: true
    columns: { id: { type: bigint, not_null: true }, name: text }
    primary_key: [id]
`;

/** A new folder holding `files` (path → text, folders made as needed); a string is the manifest alone. */
export function projectDir(files: string | Readonly<Record<string, string>>, prefix = 'cm-project-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [f, text] of Object.entries(typeof files === 'string' ? { 'citus-migrate.yaml': files } : files)) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}
