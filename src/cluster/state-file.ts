// cluster.json: what `cluster up` started and exactly which paths it created, so that `down`
// removes those and nothing else.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ClusterError } from '../errors.js';

export const CLUSTER_FILE = 'cluster.json';

const nodeSchema = z.object({ name: z.string(), port: z.number().int(), dataDir: z.string() }).strict();

const stateSchema = z.object({
  version: z.literal(1),
  citus: z.boolean(),
  nodes: z.array(nodeSchema).min(1),
  // Where the nodes' data, logs and sockets are: the cluster's folder, or (as root) a folder
  // of its own under the system temp dir that the postgres OS user can reach.
  dataRoot: z.string(),
  created: z.object({
    // Folders `up` made, outermost first; `down` removes each only when it is empty.
    dirs: z.array(z.string()),
    // Files and data directories `up` made; `down` removes exactly these.
    paths: z.array(z.string()),
  }).strict(),
}).strict();

export type ClusterState = z.infer<typeof stateSchema>;

/** Reads the cluster.json `up` wrote in dir: undefined when there is none, an error when it is not ours. */
export function readClusterFile(dir: string): ClusterState | undefined {
  const file = join(dir, CLUSTER_FILE);
  if (!existsSync(file)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ClusterError(`${file} is not JSON (${(e as Error).message}): it was not written by citus-migrate cluster up; nothing was stopped or removed`, 'cluster_file_untrusted', { path: file });
  }
  const parsed = stateSchema.safeParse(data);
  if (!parsed.success) {
    throw new ClusterError(`${file} is not a cluster.json written by this version of citus-migrate cluster up (${parsed.error.issues[0]?.path.join('.') || 'top level'}: ${parsed.error.issues[0]?.message}); nothing was stopped or removed`, 'cluster_file_untrusted', { path: file });
  }
  return parsed.data;
}

/** Writes cluster.json into dir. */
export function writeClusterFile(dir: string, state: ClusterState): void {
  writeFileSync(join(dir, CLUSTER_FILE), `${JSON.stringify(state, null, 2)}\n`);
}
