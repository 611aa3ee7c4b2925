#!/usr/bin/env node
// Executable entry point: runs the CLI on the real process and exits with its code.
import module from 'node:module';
import v8 from 'node:v8';
import { hideDatabaseArgument } from './cli/process-title.js';
import { earlyRead } from './cli/early-read.js';
import { startTimings } from './util/timings.js';

// When this file started running (ms since the process did): --timings's start-up.
const entered = performance.now();

// First, before the rest of the CLI loads: a --database password must not stay readable in `ps`.
hideDatabaseArgument(process.argv.slice(2));
// PostgreSQL's parser runs as WebAssembly (sql/pg-wasm.ts). V8 compiles it with Liftoff, its
// baseline compiler, then recompiles hot functions with TurboFan in the background: worth it in a
// long-lived process, not in a command of a second, where recompiling the parser's huge functions
// costs far more than it saves (130 routines of a real schema parsed and checked in 35 ms with
// Liftoff alone, 76-150 ms with tiering, 2 cores). Before any module is compiled; the CLI's own.
v8.setFlagsFromString('--liftoff-only');
// Node >= 22.1 keeps the compiled code of the modules between runs (absent on Node 20).
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// node-postgres asks whether it runs on Cloudflare Workers when it loads: without a `navigator`
// (Node 20; Node >= 21 has one) it builds a web Response to find out, which loads Node's whole
// fetch implementation (undici), a fifth of a small plan's start-up. Node 21's own value:
if (globalThis.navigator === undefined)
  Object.defineProperty(globalThis, 'navigator', {
    value: { userAgent: `Node.js/${process.versions.node.split('.')[0]}` },
    configurable: true,
  });
const argv = process.argv.slice(2);
// Recording starts here when asked for, so the phases of plan's early read are in it.
if (argv.includes('--timings') || process.env.CITUS_MIGRATE_TIMINGS === '1') startTimings();
// plan's connection and catalog query start now (its modules loaded first), and the server works
// on the query while commander and the command's code load.
const read = await earlyRead(argv, process.env);
const [{ processIo }, { runCli }] = await Promise.all([import('./commands/io.js'), import('./cli-program.js')]);
const code = await runCli(argv, processIo(), { entered, ...(read ? { read } : {}) });
// A read the command did not use (it ended before reading, or read another database) is closed.
read?.stop();
process.exitCode = code;
