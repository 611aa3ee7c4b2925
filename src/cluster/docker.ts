// Citus clusters on a container engine (Docker, or Podman's Docker-compatible service) through
// testcontainers: a network, a coordinator and N workers from a citusdata/citus image, each
// labelled with the cluster's id so that status and down find them, kept after the process
// exits. testcontainers is imported here only, lazily: the other commands never load it.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import { connectSession } from '../db/session.js';
import { ClusterError } from '../errors.js';
import { quoteLiteral } from '../sql/quote.js';
import {
  clusterLabels,
  ENGINE_PROBE_MS,
  hostUrl,
  LABEL_CLUSTER,
  LABEL_NODE,
  labelFilter,
  nodeNames,
  registrationSql,
  type EngineProbe,
} from './engine.js';

type Testcontainers = typeof import('testcontainers');
// Required, not imported: the bundle has no dynamic import (rolldown.config.js).
// An optional peer dependency: a project that never runs containers does not install it.
const load = async (): Promise<Testcontainers> => {
  try {
    return createRequire(import.meta.url)('testcontainers') as Testcontainers;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw e;
    throw new Error(
      'the optional package testcontainers, which runs the containers, is not installed (npm install --save-dev testcontainers)',
    );
  }
};

// Printed once by the initdb run's temporary server and once by the real one (the postgres
// image's entrypoint). The image's own HEALTHCHECK runs `pg_isready -h $(hostname -i)`, which
// breaks when the container is on two networks (testcontainers attaches it to the default one
// too), so we never rely on it.
const READY = /database system is ready to accept connections/;
const STARTUP_MS = 180_000;

export interface DockerNode {
  /** coordinator, worker1, ...: also the network alias Citus registers the node by. */
  readonly name: string;
  /** The port on 127.0.0.1 that maps to the node's 5432. */
  readonly hostPort: number;
}

export interface DockerCluster {
  readonly id: string;
  readonly image: string;
  readonly network: string;
  readonly password: string;
  readonly nodes: readonly DockerNode[]; // coordinator first
  /** URL of a database on the coordinator from the host (no password: it is in the pgpass file). */
  url(database?: string): string;
  /** Removes every container and network of the cluster (found by label). */
  remove(): Promise<{ containers: number; networks: number }>;
}

export interface ClusterContainer {
  readonly node: string;
  readonly state: string;
  readonly hostPort: number | undefined;
  readonly cluster: string;
}

const firstLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim();

/** A fresh cluster id: the value of our label on its containers and network. */
export const newClusterId = (): string => randomBytes(6).toString('hex');

/** Asks for a container engine (DOCKER_HOST, else the usual sockets) and reports within `timeoutMs` whether one answered. */
export async function probeEngine(
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs = ENGINE_PROBE_MS,
): Promise<EngineProbe> {
  const where = env.DOCKER_HOST
    ? `DOCKER_HOST=${env.DOCKER_HOST}`
    : 'the default Docker socket (DOCKER_HOST is not set)';
  let tc: Testcontainers;
  try {
    tc = await load();
  } catch (e) {
    return { answered: false, detail: firstLine(e) };
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<EngineProbe>((resolve) => {
    timer = setTimeout(
      () => resolve({ answered: false, detail: `nothing answered at ${where} within ${timeoutMs / 1000}s` }),
      timeoutMs,
    );
  });
  const probe = tc.getContainerRuntimeClient().then(
    (c): EngineProbe => ({
      answered: true,
      detail: `a container engine answered at ${where} (running on ${c.info.containerRuntime.operatingSystem})`,
    }),
    (e): EngineProbe => ({ answered: false, detail: `no engine at ${where}: ${firstLine(e)}` }),
  );
  try {
    return await Promise.race([probe, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the engine has `image` locally (nothing is pulled). */
export async function imagePresent(image: string): Promise<boolean> {
  const tc = await load();
  return (await tc.getContainerRuntimeClient()).image.exists(tc.ImageName.fromString(image));
}

/** Retries `SELECT 1` on 127.0.0.1:port until it answers (the log line can precede the port mapping being usable). */
async function waitForSql(port: number, password: string, deadline: number): Promise<void> {
  for (;;) {
    const c = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      password,
      database: 'postgres',
      connectionTimeoutMillis: 2000,
    });
    try {
      await connectSession(c);
      await c.query('SELECT 1');
      return;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`127.0.0.1:${port} did not answer SQL: ${firstLine(e)}`);
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      await c.end().catch(() => undefined);
    }
  }
}

/** Runs statements on the `postgres` database of the node at 127.0.0.1:port. */
export async function execOn(
  port: number,
  password: string,
  database: string,
  statements: readonly string[],
): Promise<void> {
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database });
  await connectSession(c);
  try {
    for (const s of statements) await c.query(s);
  } finally {
    await c.end();
  }
}

/** Lists the containers with our label (of cluster `id`, or of any cluster). */
export async function listClusterContainers(id?: string): Promise<ClusterContainer[]> {
  const tc = await load();
  const d = (await tc.getContainerRuntimeClient()).container.dockerode;
  const found = await d.listContainers({
    all: true,
    filters: { label: [id === undefined ? LABEL_CLUSTER : labelFilter(id)] },
  });
  return found
    .map((c) => ({
      node: c.Labels[LABEL_NODE] ?? '?',
      cluster: c.Labels[LABEL_CLUSTER] ?? '?',
      state: c.State,
      hostPort: c.Ports.find((p) => p.PrivatePort === 5432 && p.PublicPort)?.PublicPort,
    }))
    .sort((a, b) => a.node.localeCompare(b.node, 'en', { numeric: true }));
}

/** Removes the containers (with their anonymous volumes) and networks labelled with cluster `id`. */
export async function removeDockerCluster(id: string): Promise<{ containers: number; networks: number }> {
  const tc = await load();
  const d = (await tc.getContainerRuntimeClient()).container.dockerode;
  const containers = await d.listContainers({ all: true, filters: { label: [labelFilter(id)] } });
  await Promise.all(containers.map((c) => d.getContainer(c.Id).remove({ force: true, v: true })));
  const networks = await d.listNetworks({ filters: { label: [labelFilter(id)] } });
  for (const n of networks) await d.getNetwork(n.Id).remove();
  return { containers: containers.length, networks: networks.length };
}

/**
 * Starts a network, a coordinator and `workers` workers from `image`, ports on 127.0.0.1 (`port`
 * and the ones after it, else random), a generated password; with `register`, registers the
 * workers with the coordinator by network alias. On failure removes what it made, then throws.
 */
export async function startDockerCluster(opts: {
  image: string;
  workers: number;
  port?: number;
  register: boolean;
  id?: string;
  progress?: (line: string) => void;
}): Promise<DockerCluster> {
  const tc = await load();
  const client = await tc.getContainerRuntimeClient();
  const id = opts.id ?? newClusterId();
  const password = randomBytes(18).toString('hex');
  const network = `citus-migrate-${id}`;
  const remove = (): Promise<{ containers: number; networks: number }> => removeDockerCluster(id);
  // testcontainers binds mapped ports on every interface; the password protects them anyway,
  // but a throwaway cluster has no business listening beyond this machine.
  const Loopback = class extends tc.GenericContainer {
    protected override async beforeContainerCreated(): Promise<void> {
      for (const bindings of Object.values(this.hostConfig.PortBindings ?? {}) as { HostIp?: string }[][]) {
        for (const b of bindings) b.HostIp = '127.0.0.1';
      }
    }
  };
  try {
    await client.network.create({ Name: network, Driver: 'bridge', CheckDuplicate: true, Labels: clusterLabels(id) });
    const names = nodeNames(opts.workers);
    opts.progress?.(`starting ${names.length} containers from ${opts.image} on network ${network} ...`);
    const started = await Promise.all(
      names.map((name, i) =>
        new Loopback(opts.image)
          .withName(`${network}-${name}`)
          .withNetworkMode(network)
          .withNetworkAliases(name)
          .withExposedPorts(opts.port === undefined ? 5432 : { container: 5432, host: opts.port + i })
          // PGPASSWORD: Citus connects from node to node with libpq, which reads it (the official
          // image keeps it for that reason: its Dockerfile deletes the entrypoint's `unset PGPASSWORD`).
          .withEnvironment({ POSTGRES_PASSWORD: password, PGPASSWORD: password })
          .withCommand([
            'postgres',
            '-c',
            'wal_level=logical',
            '-c',
            'max_connections=200',
            '-c',
            'max_worker_processes=64',
            '-c',
            'fsync=off',
            '-c',
            'synchronous_commit=off',
            '-c',
            'full_page_writes=off',
          ])
          .withLabels(clusterLabels(id, name))
          .withWaitStrategy(tc.Wait.forLogMessage(READY, 2))
          .withStartupTimeout(STARTUP_MS)
          .withAutoCleanup(false)
          .start(),
      ),
    );
    const nodes = started.map((c, i) => ({ name: names[i]!, hostPort: c.getMappedPort(5432) }));
    const deadline = Date.now() + 60_000;
    await Promise.all(nodes.map((n) => waitForSql(n.hostPort, password, deadline)));
    if (opts.register) {
      await execOn(nodes[0]!.hostPort, password, 'postgres', [
        'CREATE EXTENSION IF NOT EXISTS citus',
        ...registrationSql(names.slice(1), quoteLiteral),
      ]);
    }
    return { id, image: opts.image, network, password, nodes, url: (db) => hostUrl(nodes[0]!.hostPort, db), remove };
  } catch (e) {
    const removed = await remove().then(
      () => 'removed the containers and network it had made',
      (r) => `could not remove what it had made (${firstLine(r)}): look for label ${labelFilter(id)}`,
    );
    throw new ClusterError(
      `cannot start the cluster from ${opts.image}: ${firstLine(e)}; ${removed}`,
      'cluster_engine_failed',
      { image: opts.image, id },
    );
  }
}
