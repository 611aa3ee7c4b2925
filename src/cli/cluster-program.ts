// The commander registration of `cluster up|down|status` (a group of its own).
import { Option, type Command } from 'commander';
import { DEFAULT_CLUSTER_DIR } from '../cluster/defaults.js';
import type { CommandIo } from '../commands/io.js';

/** Adds `cluster` and its subcommands to the program. */
export function registerCluster(program: Command, io: CommandIo, setCode: (n: number) => void): void {
  const cluster = program
    .command('cluster')
    .description(
      'a throwaway Citus coordinator + workers on 127.0.0.1: containers on Docker/Podman, or local binaries with the citus extension',
    );
  const dirOption = () =>
    new Option(
      '--dir <dir>',
      "the cluster's own folder: cluster.json and the nodes' data and logs (as root, data and logs go to a citus-migrate-data-* folder in the temp dir, shown by up and status)",
    ).default(DEFAULT_CLUSTER_DIR);
  cluster
    .command('up')
    .description('start it and print its URL (--dir must be new or empty)')
    .addOption(dirOption())
    // No commander defaults for --workers and --engine: up on a running cluster tells a flag given
    // (which must match it) from one left out; the defaults are applied by clusterUp.
    .option('--workers <n>', 'number of workers (default: 2)')
    .option('--port <port>', 'coordinator port; workers on the ports right after it (default: random free ports)')
    .option(
      '--engine <engine>',
      "auto (default: a container engine when one answers within 3s, else local binaries), docker (Docker or Podman's Docker API, via DOCKER_HOST) or local",
    )
    .option('--image <image>', 'with --engine docker: the Citus image (default: citusdata/citus:13.2)')
    .action(async (o) => setCode(await (await import('../commands/cluster.js')).clusterUp(o, io)));
  cluster
    .command('down')
    .description('stop it and delete what up created (other files stay)')
    .addOption(dirOption())
    .action(async (o) => setCode(await (await import('../commands/cluster.js')).clusterDown(o, io)));
  cluster
    .command('status')
    .description('show its nodes, URL and data folder')
    .addOption(dirOption())
    .action(async (o) => setCode(await (await import('../commands/cluster.js')).clusterStatus(o, io)));
}
