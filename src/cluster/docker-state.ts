// containers.json: which cluster (by label id) `cluster up --engine docker` started in a folder,
// and the files it wrote there, so that `status` and `down` find the containers by label and
// remove exactly what `up` made. The password is only in the pgpass file next to it (mode 0600).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeOutputs } from '../files/safe-write.js';
import { readStateJson, untrustedStateFile } from './state-file.js';

export const CONTAINERS_FILE = 'containers.json';
export const PGPASS_FILE = 'pgpass';

const stateSchema = z
  .object({
    version: z.literal(1),
    engine: z.literal('docker'),
    id: z.string().regex(/^[a-f0-9]{12}$/),
    image: z.string(),
    network: z.string(),
    // Empty until the containers run: the file is written first, so an interrupted up can be taken down.
    nodes: z.array(z.object({ name: z.string(), hostPort: z.number().int() }).strict()),
    created: z
      .object({
        // Folders `up` made, outermost first; `down` removes each only when it is empty.
        dirs: z.array(z.string()),
      })
      .strict(),
  })
  .strict();

export type DockerClusterState = z.infer<typeof stateSchema>;

/** Reads the containers.json `up --engine docker` wrote in dir: undefined when there is none. */
export function readContainersFile(dir: string): DockerClusterState | undefined {
  const file = join(dir, CONTAINERS_FILE);
  if (!existsSync(file)) return undefined;
  const parsed = stateSchema.safeParse(readStateJson(file));
  if (!parsed.success) throw untrustedStateFile(file, parsed.error.issues[0]);
  return parsed.data;
}

/** Writes containers.json into dir (0600, like the password file beside it). */
export function writeContainersFile(dir: string, state: DockerClusterState): void {
  const file = join(dir, CONTAINERS_FILE);
  writeOutputs(dir, [{ path: file, data: `${JSON.stringify(state, null, 2)}\n`, mode: 0o600 }], true);
}

/** Writes the password file (0600) into dir and returns its path. */
export function writePgpassFile(dir: string, text: string): string {
  const file = join(dir, PGPASS_FILE);
  writeOutputs(dir, [{ path: file, data: text, mode: 0o600 }], true);
  return file;
}
