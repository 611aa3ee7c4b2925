#!/usr/bin/env node
// Executable entry point: runs the CLI on the real process and exits with its code.
import { hideDatabaseArgument } from './cli/process-title.js';

// When this file started running (ms since the process did): --timings's start-up.
const entered = performance.now();

// First, before the rest of the CLI loads: a --database password must not stay readable in `ps`.
hideDatabaseArgument(process.argv.slice(2));
const [{ processIo }, { runCli }] = await Promise.all([import('./commands/io.js'), import('./cli-program.js')]);
const code = await runCli(process.argv.slice(2), processIo(), { entered });
process.exitCode = code;
