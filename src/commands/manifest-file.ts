// Finds the manifest a command works on: -f FILE, else citus-migrate.yaml/.yml/.json here.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { FileError } from '../errors.js';

export const DEFAULT_MANIFESTS = ['citus-migrate.yaml', 'citus-migrate.yml', 'citus-migrate.json'] as const;

/** The manifest path to use, as the user should see it. */
export function findManifest(file: string | undefined, cwd: string): string {
  if (file !== undefined) return file;
  const found = DEFAULT_MANIFESTS.find((f) => existsSync(resolve(cwd, f)));
  if (!found) throw new FileError(`no manifest: none of ${DEFAULT_MANIFESTS.join(', ')} is in ${cwd}; pass -f FILE`, cwd);
  return found;
}
