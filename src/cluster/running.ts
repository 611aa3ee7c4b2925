// `cluster up` on a folder whose cluster already runs: the flags given must describe that cluster,
// otherwise up would print a URL that is not what was asked for. Pure: no I/O here.
import type { Engine, EngineFlag } from './engine.js';

/** The cluster running in a folder, as its state file records it. */
export interface RunningCluster {
  readonly engine: Engine;
  readonly port: number;
  readonly workers: number;
  readonly image?: string;
}

/** The flags `up` was given; undefined is a flag not given (its default never conflicts). */
export interface RequestedCluster {
  readonly engine?: EngineFlag;
  readonly port?: number;
  readonly workers?: number;
  readonly image?: string;
}

/** What the flags ask for that the running cluster is not, one phrase each; empty when they agree. */
export function runningClusterDifferences(running: RunningCluster, asked: RequestedCluster): string[] {
  const out: string[] = [];
  if (asked.engine !== undefined && asked.engine !== 'auto' && asked.engine !== running.engine)
    out.push(
      `--engine ${asked.engine}, but it runs on ${running.engine === 'docker' ? 'containers' : 'local binaries'}`,
    );
  if (asked.image !== undefined && running.image !== undefined && asked.image !== running.image)
    out.push(`--image ${asked.image}, but it runs ${running.image}`);
  if (asked.port !== undefined && asked.port !== running.port)
    out.push(`--port ${asked.port}, but its coordinator listens on ${running.port}`);
  if (asked.workers !== undefined && asked.workers !== running.workers)
    out.push(`--workers ${asked.workers}, but it has ${running.workers}`);
  return out;
}
