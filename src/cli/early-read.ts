// `plan`'s first wait is the server's answer to the catalog query: the executable starts the read
// (connection and query) before the rest of the CLI (commander, the command's code) loads, so the
// server works while it does. Only for an invocation this module fully understands; anything else
// (another command, --offline, --help, an unknown flag) is left to commander, and the command
// then reads as usual. The command uses the read only when it reads the same --database.
import type { PendingRead } from '../own/read-database.js';
import type { CompileCacheStats } from '../util/compile-cache.js';

/** What the executable began before the CLI loaded: when its code started, plan's catalog read. */
export interface Started {
  /** When the executable's own code started (ms since the process did). */
  readonly entered?: number;
  readonly read?: PendingRead;
  /** What the compile cache did, when the executable installed one (util/compile-cache.ts). */
  readonly compileCache?: Readonly<CompileCacheStats>;
}

/** plan's flags that take no value and do not change what is read first. */
const FLAGS = new Set([
  '--online',
  '--detailed-exitcode',
  '--include-unmanaged',
  '--shards',
  '--no-color',
  '--timings',
]);
/** plan's flags that take a value. */
const VALUED = new Set(['--database', '--file', '-f', '--format', '--out', '-o']);

/**
 * For `plan [flags]` (nothing before the command): the --database it will read (undefined:
 * DATABASE_URL or the PG* variables); undefined when the arguments are not a plain plan.
 */
export function planReads(argv: readonly string[]): { database: string | undefined } | undefined {
  if (argv[0] !== 'plan') return undefined;
  let database: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (FLAGS.has(arg)) continue;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!VALUED.has(name)) return undefined;
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) return undefined;
    if (name === '--database') {
      if (database !== undefined) return undefined;
      database = value;
    }
  }
  return { database };
}

/**
 * Loads the connection's modules and starts plan's catalog read when `argv` is a plain plan
 * (planReads); else undefined. A module that fails to load is the command's to report (it loads
 * the same one).
 */
export async function earlyRead(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<PendingRead | undefined> {
  const plan = planReads(argv);
  if (!plan) return undefined;
  try {
    return (await import('../own/read-database.js')).startRead(plan.database, env);
  } catch {
    return undefined;
  }
}
