// The Citus cluster a benchmark runs on: one made by `citus-migrate cluster up` (CLUSTER_DIR,
// kept after the run), else a coordinator and 2 workers started for the run.
// Test and bench tooling only, not part of the CLI.
import { readClusterFile, startLocalCluster } from '../../dist/cluster/local.js';

export async function benchCluster() {
  const dir = process.env.CLUSTER_DIR;
  if (!dir) return startLocalCluster({ citus: true, workers: 2 });
  const state = readClusterFile(dir);
  if (!state?.citus) throw new Error(`${dir}: no Citus cluster made by cluster up`);
  const [coordinator, ...workers] = state.nodes;
  return {
    citus: true,
    coordinator,
    workers,
    url: (db = 'postgres') => `postgresql://postgres@127.0.0.1:${coordinator.port}/${db}`,
    stop: async () => {},
  };
}
