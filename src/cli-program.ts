// The commander registration: thin wrappers that call the library commands.
import { Argument, Command, CommanderError, Option } from 'commander';
import { EXIT, UsageError } from './errors.js';
import { reportError } from './cli-errors.js';
import type { CommandIo } from './commands/io.js';
import { PLAN_FORMATS } from './format/formats.js';
import { registerCluster } from './cli/cluster-program.js';
import { registerInit } from './cli/init-program.js';
import { registerPlan } from './cli/plan-program.js';
import { completionScript, SHELLS, type Shell } from './cli/completion.js';
import { completionSpec } from './cli/completion-spec.js';
import {
  boundedIntFlag,
  countFlag,
  durationFlag,
  nonNegativeIntFlag,
  numberFlag,
  rateFlag,
  zeroOrDurationFlag,
} from './cli/flags.js';
import { HAZARDS } from './plan/steps/steps.js';
import { TOOL_VERSION } from './version.js';
import { DEFAULT_SHARD_COUNT } from './model/types.js';
import { timed, withTimings } from './util/timings.js';

/** A command's module (and pg, zod, the parser… it pulls in), loaded when it runs: start-up is most of a small apply's cost. */
const load = <M>(f: () => Promise<M>): Promise<M> => timed('load command', f);

/** The commander program, its actions calling the library commands with `io`. */
export function buildProgram(io: CommandIo, setCode: (n: number) => void): Command {
  const program = new Command('citus-migrate')
    .description('Declarative schema and procedure migrations for Citus: plan, apply, bench.')
    .version(TOOL_VERSION)
    .option('--no-color', 'no ANSI colours, even on a terminal (as NO_COLOR=1)')
    .option('--timings', 'print where the time went on stderr (as CITUS_MIGRATE_TIMINGS=1)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });
  const file = () =>
    new Option(
      '-f, --file <file>',
      'manifest, or a folder holding citus-migrate.yaml (default: citus-migrate.yaml, .yml or .json here)',
    );
  const format = (dflt: string) => new Option('--format <format>', 'output format').choices(PLAN_FORMATS).default(dflt);

  program
    .command('validate')
    .description('check a manifest without touching any database (exit 0 valid, 1 invalid)')
    .addOption(file())
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (o) => setCode(await (await load(() => import('./commands/validate.js'))).validateCommand(o, io)));

  registerPlan(program, { io, setCode, file, format });

  program
    .command('apply')
    .description('run the plan against the cluster in one transaction, under a lock, recorded and verified')
    .addOption(file())
    .option(
      '--plan <file>',
      'apply a saved plan (plan --format json); refused when the cluster or manifest changed since',
    )
    .option('--database <url>', 'PostgreSQL URL of the Citus coordinator (else DATABASE_URL, else PG* variables)')
    .option('--auto-approve', 'apply without asking (required without a terminal)')
    .option(
      '--online',
      'change tables that hold rows without blocking writes (as if every table said online: true): distribute them concurrently, build indexes concurrently, validate foreign keys after COMMIT',
    )
    .option(
      '--shards',
      'also repair shards that differ from their table on the coordinator (see plan --shards), and check them again after',
    )
    .option('--allow-hazards <list>', `comma-separated hazards to allow: ${HAZARDS.join(', ')}, or all`)
    .addOption(
      new Option('--lock-timeout <duration>', 'lock_timeout for each statement')
        .argParser(durationFlag)
        .default(5000, '5s'),
    )
    .addOption(
      new Option('--statement-timeout <duration>', 'statement_timeout for each statement (0: none)')
        .argParser(zeroOrDurationFlag)
        .default(0, '0'),
    )
    .addOption(
      new Option('--retries <n>', 'retries after a lock_timeout, with backoff (0 to 20)')
        .argParser(boundedIntFlag(0, 20))
        .default(3),
    )
    .addOption(
      new Option(
        '--wait <duration>',
        'how long to wait for another apply, or for the cluster (inactive node, unsynced metadata, a rebalance or other background job) before a plan that moves or rewrites tables',
      )
        .argParser(zeroOrDurationFlag)
        .default(60_000, '60s'),
    )
    .option('--rehearse', 'run the whole transaction on the cluster, then roll it back')
    .option('--bench', "after a successful apply, run the manifest's smoke benchmark (bench)")
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (o) => setCode(await (await load(() => import('./commands/apply.js'))).applyCommand(o, io)));

  program
    .command('bench')
    .description("run the manifest's bench workloads: delegation check, TPS, latency percentiles, gates")
    .addOption(file())
    .option('--database <url>', 'PostgreSQL URL of the Citus coordinator (else DATABASE_URL, else PG* variables)')
    .addOption(new Option('--clients <n>', "connections (default: the manifest's bench.clients)").argParser(countFlag))
    .addOption(new Option('--duration <duration>', 'how long to measure, e.g. 30s').argParser(durationFlag))
    .addOption(
      new Option('--transactions <n>', 'how many transactions to measure (instead of a duration)').argParser(countFlag),
    )
    .addOption(new Option('--warmup <duration>', 'run this long before measuring').argParser(durationFlag))
    .option('--workload <name>', 'only this workload (repeatable)', (v: string, acc: string[] = []) => [...acc, v])
    .addOption(
      new Option('--seed <n>', 'seed of the parameter generators (runs repeat exactly)')
        .argParser(nonNegativeIntFlag('a seed'))
        .default(1),
    )
    .option('--require-delegation', 'fail before the run when a workload is not delegated to a worker')
    .addOption(new Option('--min-tps <n>', 'fail below this total TPS').argParser(numberFlag))
    .addOption(new Option('--max-p95 <ms>', 'fail above this total p95 latency').argParser(numberFlag))
    .addOption(
      new Option(
        '--max-error-rate <rate>',
        'allow errors up to this rate (1% or 0.01); without it any error fails the run',
      ).argParser(rateFlag),
    )
    .option('--compare <baseline.json>', 'print the ratio to an earlier run (bench --format json)')
    .addOption(
      new Option(
        '--max-regression <rate>',
        'with --compare: fail when TPS drops by more than this (10% or 0.1)',
      ).argParser(rateFlag),
    )
    .addOption(
      new Option('--progress-interval <duration>', 'without a terminal: a progress line on stderr this often')
        .argParser(durationFlag)
        .default(5000, '5s'),
    )
    .option('--emit-pgbench <dir>', 'write the workload as pgbench scripts and print the pgbench command; runs nothing')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text'))
    .option('-o, --out <file>', 'write the report to a file instead of stdout')
    .action(async (o) => setCode(await (await load(() => import('./commands/bench.js'))).benchCommand(o, io)));

  const history = program
    .command('history')
    .description('show the applies recorded in citus_migrate.applies')
    .option('--database <url>', 'PostgreSQL URL of the Citus coordinator (else DATABASE_URL, else PG* variables)')
    .addOption(new Option('--limit <n>', 'how many, newest first').argParser(countFlag).default(50))
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (o) => setCode(await (await load(() => import('./commands/history.js'))).historyCommand(o, io)));
  history
    .command('show')
    .description('one apply: its steps (kind, summary, hazards), outcome, times, manifest and error')
    .addArgument(
      new Argument('<id>', 'the apply number (ID in history)').argParser(nonNegativeIntFlag('an apply number')),
    )
    .option('--database <url>', 'PostgreSQL URL of the Citus coordinator (else DATABASE_URL, else PG* variables)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (id: number, _o, cmd: Command) =>
      setCode(
        await (await load(() => import('./commands/history.js'))).historyShowCommand(id, cmd.optsWithGlobals(), io),
      ),
    );

  program
    .command('analyze')
    .description(
      'for each delegated routine, where every statement of its body runs: on the shard, reference tables, across shards, the coordinator',
    )
    .addOption(file())
    .option(
      '--database <url>',
      'read the routines, their delegation and the tables from this cluster (the manifest is then optional)',
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (o) => setCode(await (await load(() => import('./commands/analyze.js'))).analyzeCommand(o, io)));

  program
    .command('introspect')
    .description('write a v1 manifest of what the cluster has (adopt an existing cluster)')
    .option('--database <url>', 'PostgreSQL URL of the Citus coordinator (else DATABASE_URL, else PG* variables)')
    .option('--schema <schema>', 'default schema of the written manifest', 'public')
    .option('-o, --out <file>', 'write the manifest to a file instead of stdout (its files beside it)')
    .option('--force', 'overwrite the manifest and files that --out would write')
    .option('--strict', 'exit 1 when anything the cluster holds is left out of the manifest')
    .action(async (o) =>
      setCode(await (await load(() => import('./commands/introspect.js'))).introspectCommand(o, io)),
    );

  program
    .command('hammerdb')
    .description("write the transaction that distributes a HammerDB TPROC-C schema as HammerDB's Citus build does")
    .addOption(
      new Option('--variant <variant>', 'how HammerDB built the routines')
        .choices(['procedures', 'functions'])
        .default('procedures'),
    )
    .option('--shard-count <n>', 'shards in the warehouse colocation group', String(DEFAULT_SHARD_COUNT))
    .option('--schema <schema>', 'schema holding the HammerDB tables', 'public')
    .option('--manifest', 'write the layout as a citus-migrate manifest (with a TPC-C bench mix) instead of the script')
    .addOption(
      new Option(
        '--warehouses <n>',
        'with --manifest: a fixed warehouse count for the bench mix (default: max(w_id), read from the database before each run)',
      ).argParser(countFlag),
    )
    .addOption(format('sql'))
    .option('-o, --out <file>', 'write the script to a file instead of stdout')
    .action(async (o) => setCode(await (await load(() => import('./commands/hammerdb.js'))).hammerdbCommand(o, io)));

  registerCluster(program, io, setCode);

  registerInit(program, io, setCode);

  program
    .command('completion')
    .description('print a shell completion script (bash: source <(citus-migrate completion bash))')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .action((shell: Shell) => io.stdout(completionScript(shell, program.name(), completionSpec(program))));

  program
    .command('version')
    .description('print the version (as --version)')
    .action(() => io.stdout(`${TOOL_VERSION}\n`));

  return program;
}

function wantsJson(argv: readonly string[]): boolean {
  return argv.some((a, i) => a === '--format=json' || (a === '--format' && argv[i + 1] === 'json'));
}

/**
 * Runs the CLI in-process with the given arguments (without node and script); returns the exit
 * code. `entered`: when the executable's own code started (--timings's start-up).
 */
export async function runCli(
  argv: readonly string[],
  io: CommandIo,
  { entered }: { entered?: number } = {},
): Promise<number> {
  const on = argv.includes('--timings') || io.env.CITUS_MIGRATE_TIMINGS === '1';
  return on ? withTimings(entered, io.stderr, () => runProgram(argv, io)) : runProgram(argv, io);
}

async function runProgram(argv: readonly string[], io: CommandIo): Promise<number> {
  let code: number = EXIT.ok;
  // --no-color is read here, before any command runs, so every message honours it.
  if (argv.includes('--no-color')) io = { ...io, color: { stdout: false, stderr: false } };
  const program = buildProgram(io, (n) => {
    code = n;
  });
  if (argv.length === 0) {
    // Nothing asked for is a usage error (a CI step with a missing argument must not pass).
    io.stderr(program.helpInformation());
    return EXIT.usage;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
        return EXIT.ok;
      if (err.code === 'commander.executeSubCommandAsync') return EXIT.error;
      // commander has already printed its message to stderr.
      if (wantsJson(argv))
        reportError(new UsageError(err.message.replace(/^error: /, '')), { ...io, stderr: () => undefined }, true);
      return EXIT.usage;
    }
    return reportError(err, io, wantsJson(argv));
  }
}
