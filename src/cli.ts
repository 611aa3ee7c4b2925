#!/usr/bin/env node
// Executable entry point: runs the CLI on the real process and exits with its code.
import module from 'node:module';
import { hideDatabaseArgument } from './cli/process-title.js';

// When this file started running (ms since the process did): --timings's start-up.
const entered = performance.now();

// First, before the rest of the CLI loads: a --database password must not stay readable in `ps`.
hideDatabaseArgument(process.argv.slice(2));
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
const [{ processIo }, { runCli }] = await Promise.all([import('./commands/io.js'), import('./cli-program.js')]);
const code = await runCli(process.argv.slice(2), processIo(), { entered });
process.exitCode = code;
