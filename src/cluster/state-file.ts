// cluster.json: what `cluster up` started and exactly which paths it created, so that `down`
// removes those and nothing else.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { ClusterError } from '../errors.js';
import { writeOutputs } from '../files/safe-write.js';

export const CLUSTER_FILE = 'cluster.json';

const nodeSchema = z.object({ name: z.string(), port: z.number().int(), dataDir: z.string() }).strict();

const stateSchema = z
  .object({
    version: z.literal(1),
    citus: z.boolean(),
    nodes: z.array(nodeSchema).min(1),
    // Where the nodes' data, logs and sockets are: the cluster's folder, or (as root) a folder
    // of its own under the system temp dir that the postgres OS user can reach.
    dataRoot: z.string(),
    created: z
      .object({
        // Folders `up` made, outermost first; `down` removes each only when it is empty.
        dirs: z.array(z.string()),
        // Files and data directories `up` made; `down` removes exactly these.
        paths: z.array(z.string()),
      })
      .strict(),
  })
  .strict();

export type ClusterState = z.infer<typeof stateSchema>;

/** Reads the cluster.json `up` wrote in dir: undefined when there is none, an error when it is not ours. */
export function readClusterFile(dir: string): ClusterState | undefined {
  const file = join(dir, CLUSTER_FILE);
  if (!existsSync(file)) return undefined;
  const data = readStateJson(file);
  const parsed = stateSchema.safeParse(data);
  if (!parsed.success && isEarlierFormat(data)) {
    // Written by citus-migrate 0.1's cluster up, which recorded no list of what it created.
    const dirs = data.nodes.map((n) => n.dataDir);
    throw new ClusterError(
      `${file} was written by an earlier citus-migrate, which did not record what it created, so nothing is removed automatically; stop its nodes with: ${dirs.map((d) => `pg_ctl -D ${d} stop`).join('; ')} (as the postgres user when they run as postgres), then remove ${[...new Set([data.dataRoot ?? '', file].filter(Boolean))].join(' and ')} yourself`,
      'cluster_file_untrusted',
      { path: file },
    );
  }
  if (!parsed.success) throw untrustedStateFile(file, parsed.error.issues[0]);
  return parsed.data;
}

/** Writes cluster.json into dir. */
export function writeClusterFile(dir: string, state: ClusterState): void {
  writeOutputs(dir, [{ path: join(dir, CLUSTER_FILE), data: `${JSON.stringify(state, null, 2)}\n` }], true);
}

/** The state file of citus-migrate 0.1: nodes with their data directories, nothing more. */
function isEarlierFormat(data: unknown): data is { nodes: { dataDir: string }[]; dataRoot?: string } {
  const d = data as { version?: unknown; nodes?: unknown };
  return (
    d !== null &&
    typeof d === 'object' &&
    d.version === undefined &&
    Array.isArray(d.nodes) &&
    d.nodes.every(
      (n) => n !== null && typeof n === 'object' && typeof (n as { dataDir?: unknown }).dataDir === 'string',
    )
  );
}

/** A state file as JSON; a ClusterError (nothing is touched) when it is not JSON. */
export function readStateJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ClusterError(
      `${file} is not JSON (${(e as Error).message}): it was not written by citus-migrate cluster up; nothing was stopped or removed`,
      'cluster_file_untrusted',
      { path: file },
    );
  }
}

/** The error for a state file that does not match what this version writes. */
export function untrustedStateFile(
  file: string,
  issue: { path: readonly PropertyKey[]; message: string } | undefined,
): ClusterError {
  return new ClusterError(
    `${file} is not a ${basename(file)} written by this version of citus-migrate cluster up (${issue?.path.map(String).join('.') || 'top level'}: ${issue?.message}); nothing was stopped or removed`,
    'cluster_file_untrusted',
    { path: file },
  );
}
