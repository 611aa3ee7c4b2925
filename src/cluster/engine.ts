// Pure parts of `cluster up --engine`: which engine to use given what answered, the labels that
// mark our containers and networks, the URL and the password file. No I/O here.
import { ClusterError, UsageError } from '../errors.js';

export const ENGINES = ['auto', 'docker', 'local'] as const;
export type EngineFlag = (typeof ENGINES)[number];
export type Engine = Exclude<EngineFlag, 'auto'>;

/** The image `cluster up --engine docker` runs unless --image says otherwise. */
export const DEFAULT_IMAGE = 'citusdata/citus:13.2';
/** How long `auto` and `docker` wait for a container engine to answer. */
export const ENGINE_PROBE_MS = 3000;

/** Label keys on every container and network `cluster up` makes. */
export const LABEL_CLUSTER = 'dev.citus-migrate.cluster';
export const LABEL_NODE = 'dev.citus-migrate.node';

/** What probing for a container engine found: `detail` names it, or says why none answered. */
export interface EngineProbe {
  readonly answered: boolean;
  readonly detail: string;
}

/** Whether local server binaries with the citus extension are there, and where (or why not). */
export interface LocalProbe {
  readonly available: boolean;
  readonly detail: string;
}

/** Picks the engine for `requested` from the probes; throws a ClusterError when it has none. */
export function chooseEngine(
  requested: EngineFlag,
  docker: EngineProbe | undefined,
  local: LocalProbe,
): { engine: Engine; why: string } {
  if (requested === 'local') return { engine: 'local', why: '--engine local' };
  if (requested === 'docker') {
    if (docker?.answered) return { engine: 'docker', why: `--engine docker: ${docker.detail}` };
    throw new ClusterError(
      `--engine docker: no container engine answered (${docker?.detail ?? 'not probed'}). Start Docker, or Podman's service and set DOCKER_HOST (e.g. unix:///run/podman/podman.sock), or use --engine local`,
      'cluster_engine_unavailable',
    );
  }
  if (docker?.answered) return { engine: 'docker', why: `a container engine answered: ${docker.detail}` };
  if (local.available)
    return {
      engine: 'local',
      why: `no container engine answered (${docker?.detail ?? 'not probed'}); local binaries: ${local.detail}`,
    };
  throw new ClusterError(
    `cannot start a cluster: no container engine answered (${docker?.detail ?? 'not probed'}), and no local Citus (${local.detail})`,
    'cluster_unavailable',
  );
}

/** Checks --engine and --image together; throws a UsageError (exit 64). */
export function parseEngineOptions(opts: { engine?: string; image?: string }): { engine: EngineFlag; image: string } {
  const engine = opts.engine ?? 'auto';
  if (!(ENGINES as readonly string[]).includes(engine))
    throw new UsageError(`--engine must be one of ${ENGINES.join(', ')} (got ${JSON.stringify(engine)})`);
  if (opts.image === undefined) return { engine: engine as EngineFlag, image: DEFAULT_IMAGE };
  if (engine !== 'docker')
    throw new UsageError(`--image needs --engine docker (got --engine ${engine}): only containers run an image`);
  // A reference as `docker run` takes it: [registry/]name[:tag][@digest], no spaces or schemes.
  if (!/^[a-z0-9][a-z0-9._\-/:@]*$/i.test(opts.image) || opts.image.includes('://')) {
    throw new UsageError(
      `--image must be an image reference such as ${DEFAULT_IMAGE} (got ${JSON.stringify(opts.image)})`,
    );
  }
  return { engine: 'docker', image: opts.image };
}

/** The labels of one container (node) or, without `node`, the network of cluster `id`. */
export function clusterLabels(id: string, node?: string): Record<string, string> {
  return node === undefined ? { [LABEL_CLUSTER]: id } : { [LABEL_CLUSTER]: id, [LABEL_NODE]: node };
}

/** The label filter that finds everything of cluster `id` (Docker API `filters.label`). */
export const labelFilter = (id: string): string => `${LABEL_CLUSTER}=${id}`;

/** Node names, coordinator first: also the network aliases Citus registers them by. */
export const nodeNames = (workers: number): string[] => [
  'coordinator',
  ...Array.from({ length: workers }, (_, i) => `worker${i + 1}`),
];

/**
 * The URL of a database on the coordinator as seen from the host. It carries no password: with
 * `passfile` it names the password file (libpq's passfile parameter, which psql and we read).
 */
export function hostUrl(port: number, database = 'postgres', passfile?: string): string {
  const base = `postgresql://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  return passfile === undefined ? base : `${base}?passfile=${encodeURIComponent(passfile).replace(/%2F/g, '/')}`;
}

/** A password file (libpq's format, for PGPASSFILE) giving `password` for user postgres on each port of 127.0.0.1. */
export function pgpassText(ports: readonly number[], password: string): string {
  const escaped = password.replace(/[\\:]/g, (c) => `\\${c}`);
  return ports.map((p) => `127.0.0.1:${p}:*:postgres:${escaped}\n`).join('');
}

/** The statements that register the nodes with the coordinator by network alias, coordinator first. */
export function registrationSql(workers: readonly string[], quote: (s: string) => string): string[] {
  return [
    `SELECT pg_catalog.citus_set_coordinator_host(${quote('coordinator')}, 5432)`,
    ...workers.map((w) => `SELECT pg_catalog.citus_add_node(${quote(w)}, 5432)`),
  ];
}
