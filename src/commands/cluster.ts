// `citus-migrate cluster up|down|status`: parse, call the cluster library (src/cluster/cluster-api.ts), print.
import { EXIT } from '../errors.js';
import { clusterDown as down, clusterStatus as status, clusterUp as up } from '../cluster/cluster-api.js';
import { DEFAULT_CLUSTER_DIR } from '../cluster/defaults.js';
import type { CommandIo } from './io.js';

export { parseClusterOptions } from '../cluster/cluster-api.js';

const noteTo = (io: CommandIo) => (line: string) => io.stderr(`${line}\n`);

/** Starts the cluster (or reports the one already running) and prints its URL on stdout. */
export async function clusterUp(
  opts: { dir?: string; workers?: string | number; port?: string | number; engine?: string; image?: string },
  io: CommandIo,
): Promise<number> {
  const { url } = await up({ ...opts, cwd: io.cwd, env: io.env }, noteTo(io));
  io.stdout(`${url}\n`);
  return EXIT.ok;
}

/** Stops the cluster and removes exactly what `up` created. */
export async function clusterDown(opts: { dir?: string }, io: CommandIo): Promise<number> {
  if (!(await down({ ...opts, cwd: io.cwd }, noteTo(io))))
    io.stderr(`no cluster in ${opts.dir ?? DEFAULT_CLUSTER_DIR}\n`);
  return EXIT.ok;
}

/** Prints each node and whether it runs; exit 1 when any is down or there is no cluster. */
export async function clusterStatus(opts: { dir?: string }, io: CommandIo): Promise<number> {
  const s = await status({ ...opts, cwd: io.cwd });
  if (!s) {
    io.stderr(`no cluster in ${opts.dir ?? DEFAULT_CLUSTER_DIR} (start one with citus-migrate cluster up)\n`);
    return EXIT.error;
  }
  for (const n of s.nodes) io.stdout(`${n.name.padEnd(12)} ${n.address}  ${n.state}\n`);
  for (const [label, value] of [
    ['url', s.url],
    ['data', s.data],
    ['image', s.image],
    ['label', s.label],
  ] as const)
    if (value !== undefined) io.stdout(`${label.padEnd(12)} ${value}\n`);
  return s.running ? EXIT.ok : EXIT.error;
}
