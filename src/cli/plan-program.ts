// The commander registration of `plan` (its module, with the planner, loads only when it runs).
import type { Command, Option } from 'commander';
import type { CommandIo } from '../commands/io.js';
import { timed } from '../util/timings.js';

/** Adds `plan` to the program; `file` and `format` make the options every command shares. */
export function registerPlan(
  program: Command,
  {
    io,
    setCode,
    file,
    format,
  }: {
    io: CommandIo;
    setCode: (n: number) => void;
    file: () => Option;
    format: (dflt: string) => Option;
  },
): void {
  program
    .command('plan')
    .description('print the one transaction that converges the cluster to the manifest')
    .addOption(file())
    .option('--offline', 'plan against an empty cluster; reads no database')
    .option(
      '--online',
      'change tables that hold rows without blocking writes (as if every table said online: true): distribute them concurrently, build indexes concurrently, validate foreign keys after COMMIT',
    )
    .option('--database <url>', 'PostgreSQL URL of the Citus coordinator (else DATABASE_URL, else PG* variables)')
    .addOption(format('text'))
    .option('-o, --out <file>', 'write the plan to a file instead of stdout')
    .option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when changes are pending, 1 on error')
    .option(
      '--shards',
      'also check every shard on the nodes against its table on the coordinator (columns, indexes and their validity, constraints, triggers); repair steps for what differs',
    )
    .option(
      '--prove',
      'run the plan in full on a copy of the database without rows (a scratch database on the same server or cluster, dropped after), plan again, and report a refusal or a plan that does not converge as a plan problem',
    )
    .option(
      '--prove-on <url>',
      'with --prove: build the copy on this server or cluster instead (one where the role may create databases)',
    )
    .option(
      '--include-unmanaged',
      'with --detailed-exitcode: exit 2 also when the cluster holds unmanaged or not-managed objects (a drift check)',
    )
    .action(async (o: { offline?: boolean; database?: string }) => {
      // Once the arguments are parsed, the catalog read starts before the planner's code loads:
      // the server works on the query while it does. planCommand uses it or stops it.
      const read = o.offline ? undefined : (await import('../own/read-database.js')).startRead(o.database, io.env);
      try {
        setCode(await (await timed('load command', () => import('../commands/plan.js'))).planCommand(o, io, read));
      } finally {
        read?.stop();
      }
    });
}
