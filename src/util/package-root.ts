// The package's own folder (package.json, migrations/, templates/), found by walking up from this
// module to the nearest package.json: the same folder whether this code runs from src/ (tests),
// from tsc's dist/ or from a chunk of the bundled CLI (dist/chunks/), wherever npm installed it.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let found: string | undefined;

/** The absolute path of the folder holding the tool's package.json. */
export function packageRoot(): string {
  if (found !== undefined) return found;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return (found = dir);
    if (dirname(dir) === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
  }
}
