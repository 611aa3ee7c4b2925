// The CLI on the real process: what the executable (cli.ts) runs once V8 is set up. Bundled by
// rolldown into dist/chunks/cli-main.cjs; exits with the command's code.
import { hideDatabaseArgument } from './cli/process-title.js';
import { startTimings } from './util/timings.js';

/** Runs the CLI. `entered`: when the executable's own code started (--timings's start-up). */
export async function main(entered: number): Promise<void> {
  // First, before the rest of the CLI loads: a --database password must not stay readable in `ps`.
  hideDatabaseArgument(process.argv.slice(2));
  // node-postgres asks whether it runs on Cloudflare Workers when it loads: without a `navigator`
  // (Node 20; Node >= 21 has one) it builds a web Response to find out, which loads Node's whole
  // fetch implementation (undici), a fifth of a small plan's start-up. Node 21's own value:
  if (globalThis.navigator === undefined)
    Object.defineProperty(globalThis, 'navigator', {
      value: { userAgent: `Node.js/${process.versions.node.split('.')[0]}` },
      configurable: true,
    });
  const argv = process.argv.slice(2);
  // Recording starts here when asked for, so the loading of the CLI's code is in it.
  if (argv.includes('--timings') || process.env.CITUS_MIGRATE_TIMINGS === '1') startTimings();
  const [{ processIo }, { runCli }] = await Promise.all([import('./commands/io.js'), import('./cli-program.js')]);
  const code = await runCli(argv, processIo(), { entered });
  process.exitCode = code;
}
