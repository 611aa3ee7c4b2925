// `cluster up|down|status` on a container engine: the containers are found by the label id in
// DIR/containers.json; the password is only in DIR/pgpass (0600), which the printed URL names.
import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT } from '../errors.js';
import {
  CONTAINERS_FILE,
  PGPASS_FILE,
  readContainersFile,
  writeContainersFile,
  writePgpassFile,
  type DockerClusterState,
} from '../cluster/docker-state.js';
import { hostUrl, labelFilter, pgpassText } from '../cluster/engine.js';
import { makeDirs } from '../cluster/local.js';
import { plural } from '../util/plural.js';
import type { CommandIo } from './io.js';

const docker = () => import('../cluster/docker.js');

/** Removes the files `up` wrote in dir, then the folders it made if they are empty; returns the folders kept. */
function removeFiles(dir: string, dirs: readonly string[]): string[] {
  rmSync(join(dir, PGPASS_FILE), { force: true });
  rmSync(join(dir, CONTAINERS_FILE), { force: true });
  const kept: string[] = [];
  for (const d of [...dirs].reverse()) {
    if (!existsSync(d)) continue;
    if (readdirSync(d).length > 0) {
      kept.push(d);
      continue;
    }
    rmdirSync(d);
  }
  return kept;
}

/** Starts the cluster on the container engine in (new or empty) dir and prints its URL. */
export async function dockerUp(
  dir: string,
  shown: string,
  opts: { workers: number; port?: number; image: string },
  io: CommandIo,
): Promise<number> {
  const { newClusterId, startDockerCluster } = await docker();
  const dirs = makeDirs(dir);
  const state: DockerClusterState = {
    version: 1,
    engine: 'docker',
    id: newClusterId(),
    image: opts.image,
    network: '',
    nodes: [],
    created: { dirs },
  };
  // Written before any container exists, so that an interrupted `up` can still be taken down.
  writeContainersFile(dir, state);
  let cluster;
  try {
    cluster = await startDockerCluster({ ...opts, register: true, id: state.id, progress: (l) => io.stderr(`${l}\n`) });
  } catch (e) {
    removeFiles(dir, dirs);
    throw e;
  }
  const ports = cluster.nodes.map((n) => n.hostPort);
  const passfile = writePgpassFile(dir, pgpassText(ports, cluster.password));
  writeContainersFile(dir, {
    ...state,
    network: cluster.network,
    nodes: cluster.nodes.map((n) => ({ name: n.name, hostPort: n.hostPort })),
  });
  io.stderr(
    `coordinator 127.0.0.1:${ports[0]}, workers ${
      cluster.nodes
        .slice(1)
        .map((n) => `127.0.0.1:${n.hostPort}`)
        .join(', ') || 'none'
    } (registered by network alias: ${cluster.nodes.map((n) => n.name).join(', ')})\n`,
  );
  io.stderr(
    `containers labelled ${labelFilter(cluster.id)} keep running until citus-migrate cluster down --dir ${shown}\n`,
  );
  io.stderr(`the generated password for user postgres is in ${passfile} (mode 0600), which the URL names\n`);
  io.stdout(`${hostUrl(ports[0]!, 'postgres', passfile)}\n`);
  return EXIT.ok;
}

/** Whether every node of the cluster in dir runs (for `up` on a folder that has one). */
export async function dockerRunning(state: DockerClusterState): Promise<boolean> {
  const { listClusterContainers } = await docker();
  const found = await listClusterContainers(state.id);
  return state.nodes.length > 0 && found.length === state.nodes.length && found.every((c) => c.state === 'running');
}

/** Removes the containers and network labelled with the cluster's id, then the files `up` wrote. */
export async function dockerDown(dir: string, shown: string, io: CommandIo): Promise<number> {
  const state = readContainersFile(dir)!;
  const { removeDockerCluster } = await docker();
  const { containers, networks } = await removeDockerCluster(state.id);
  const kept = removeFiles(dir, state.created.dirs);
  io.stderr(
    `removed ${plural(containers, 'container')} and ${plural(networks, 'network')} labelled ${labelFilter(state.id)}, and the files cluster up wrote in ${shown}\n`,
  );
  for (const k of kept) io.stderr(`kept ${k}: it holds files cluster up did not create\n`);
  return EXIT.ok;
}

/** Prints each container, its state and port, and the URL; exit 1 when any node is not running. */
export async function dockerStatus(dir: string, io: CommandIo): Promise<number> {
  const state = readContainersFile(dir)!;
  const { listClusterContainers } = await docker();
  const found = await listClusterContainers(state.id);
  for (const n of state.nodes) {
    const c = found.find((f) => f.node === n.name);
    io.stdout(`${n.name.padEnd(12)} 127.0.0.1:${n.hostPort}  ${c?.state ?? 'missing'}\n`);
  }
  const passfile = join(dir, PGPASS_FILE);
  if (state.nodes.length > 0) io.stdout(`url          ${hostUrl(state.nodes[0]!.hostPort, 'postgres', passfile)}\n`);
  io.stdout(`image        ${state.image}\n`);
  io.stdout(`label        ${labelFilter(state.id)}\n`);
  return state.nodes.length > 0 && state.nodes.every((n) => found.find((f) => f.node === n.name)?.state === 'running')
    ? EXIT.ok
    : EXIT.error;
}
