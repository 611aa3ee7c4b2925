#!/usr/bin/env node
// Executable entry point. Sets what must be set before any of the CLI's code is compiled, then
// runs the CLI (cli-main.ts, bundled with its dependencies into dist/chunks/ as CommonJS by
// rolldown.config.js) and exits with its code. Imports nothing of the CLI itself.
import module, { createRequire } from 'node:module';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';

// When this file started running (ms since the process did): --timings's start-up.
const entered = performance.now();

// PostgreSQL's parser runs as WebAssembly (sql/pg-wasm.ts). V8 compiles it with Liftoff, its
// baseline compiler, then recompiles hot functions with TurboFan in the background: worth it in a
// long-lived process, not in a command of a second, where recompiling the parser's huge functions
// costs far more than it saves (130 routines of a real schema parsed and checked in 35 ms with
// Liftoff alone, 76-150 ms with tiering, 2 cores). Before any module is compiled; the CLI's own.
v8.setFlagsFromString('--liftoff-only');

// The compiled code of the CLI's bundle is kept between runs (~40 ms a run) where Node has a
// compile cache for it (module.enableCompileCache, Node >= 22.1); Node 20 compiles it each run.
// CITUS_MIGRATE_COMPILE_CACHE=0 turns it off.
if (process.env.CITUS_MIGRATE_COMPILE_CACHE !== '0') {
  const native = (module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  native?.(fileURLToPath(new URL('../.compile-cache/', import.meta.url)));
}

const { main } = createRequire(import.meta.url)('./chunks/cli-main.cjs') as {
  main(entered: number): Promise<void>;
};
await main(entered);
