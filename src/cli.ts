#!/usr/bin/env node
// Executable entry point: runs the CLI on the real process and exits with its code.
import { processIo } from './commands/io.js';
import { runCli } from './cli-program.js';

const code = await runCli(process.argv.slice(2), processIo());
process.exitCode = code;
