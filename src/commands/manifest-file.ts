// Finds the manifest a command works on: -f FILE (or -f DIR: the default name inside DIR), else
// citus-migrate.yaml/.yml/.json here.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FileError } from '../errors.js';

export const DEFAULT_MANIFESTS = ['citus-migrate.yaml', 'citus-migrate.yml', 'citus-migrate.json'] as const;

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // a missing file is reported by the loader, with its name
  }
}

/** The manifest path to use, as the user should see it. */
export function findManifest(file: string | undefined, cwd: string): string {
  if (file !== undefined && !isDirectory(resolve(cwd, file))) return file;
  const dir = file ?? '.';
  const found = DEFAULT_MANIFESTS.find((f) => existsSync(resolve(cwd, dir, f)));
  if (!found)
    throw new FileError(
      `no manifest: none of ${DEFAULT_MANIFESTS.join(', ')} is in ${resolve(cwd, dir)}; pass -f FILE`,
      resolve(cwd, dir),
    );
  return file === undefined ? found : join(file, found);
}
