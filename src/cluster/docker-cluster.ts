// The cluster library on a container engine: the containers are found by the label id in
// DIR/containers.json; the password is only in DIR/pgpass (0600), which the URL names.
import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  CONTAINERS_FILE,
  PGPASS_FILE,
  readContainersFile,
  writeContainersFile,
  writePgpassFile,
  type DockerClusterState,
} from './docker-state.js';
import { hostUrl, labelFilter, pgpassText } from './engine.js';
import { makeDirs } from './local.js';
import { plural } from '../util/plural.js';
import type { ClusterNote, ClusterStatusResult, NodeStatus } from './cluster-types.js';

const docker = () => import('./docker.js');

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

/** Starts the cluster on the container engine in (new or empty) dir; returns its URL. */
export async function dockerUp(
  dir: string,
  shown: string,
  opts: { workers: number; port?: number; image: string },
  note: ClusterNote,
): Promise<string> {
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
    cluster = await startDockerCluster({ ...opts, register: true, id: state.id, progress: note });
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
  note(
    `coordinator 127.0.0.1:${ports[0]}, workers ${
      cluster.nodes
        .slice(1)
        .map((n) => `127.0.0.1:${n.hostPort}`)
        .join(', ') || 'none'
    } (registered by network alias: ${cluster.nodes.map((n) => n.name).join(', ')})`,
  );
  note(`containers labelled ${labelFilter(cluster.id)} keep running until citus-migrate cluster down --dir ${shown}`);
  note(`the generated password for user postgres is in ${passfile} (mode 0600), which the URL names`);
  return hostUrl(ports[0]!, 'postgres', passfile);
}

/** Whether every node of the cluster in dir runs (for `up` on a folder that has one). */
export async function dockerRunning(state: DockerClusterState): Promise<boolean> {
  const { listClusterContainers } = await docker();
  const found = await listClusterContainers(state.id);
  return state.nodes.length > 0 && found.length === state.nodes.length && found.every((c) => c.state === 'running');
}

/** Removes the containers and network labelled with the cluster's id, then the files `up` wrote. */
export async function dockerDown(dir: string, shown: string, note: ClusterNote): Promise<void> {
  const state = readContainersFile(dir)!;
  const { removeDockerCluster } = await docker();
  const { containers, networks } = await removeDockerCluster(state.id);
  const kept = removeFiles(dir, state.created.dirs);
  note(
    `removed ${plural(containers, 'container')} and ${plural(networks, 'network')} labelled ${labelFilter(state.id)}, and the files cluster up wrote in ${shown}`,
  );
  for (const k of kept) note(`kept ${k}: it holds files cluster up did not create`);
}

/** Each container, its state and port, the URL, image and label. */
export async function dockerStatus(dir: string): Promise<ClusterStatusResult> {
  const state = readContainersFile(dir)!;
  const { listClusterContainers } = await docker();
  const found = await listClusterContainers(state.id);
  const nodes: NodeStatus[] = state.nodes.map((n) => {
    const c = found.find((f) => f.node === n.name);
    return {
      name: n.name,
      address: `127.0.0.1:${n.hostPort}`,
      state: c?.state ?? 'missing',
      running: c?.state === 'running',
    };
  });
  return {
    engine: 'docker',
    nodes,
    ...(state.nodes.length > 0 ? { url: hostUrl(state.nodes[0]!.hostPort, 'postgres', join(dir, PGPASS_FILE)) } : {}),
    image: state.image,
    label: labelFilter(state.id),
    running: nodes.length > 0 && nodes.every((n) => n.running),
  };
}
