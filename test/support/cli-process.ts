// Runs the built CLI (dist/cli.js) as a real process, for tests of concurrency and kills.
import { spawn, type ChildProcess } from 'node:child_process';

export interface ProcResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function startCli(
  args: readonly string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
): { child: ChildProcess; done: Promise<ProcResult> } {
  const child = spawn(process.execPath, [`${process.cwd()}/dist/cli.js`, ...args], {
    cwd: opts.cwd ?? process.cwd(),
    env: { PATH: process.env.PATH ?? '', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => {
    stdout += d;
  });
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const done = new Promise<ProcResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

export function runCliProcess(
  args: readonly string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Promise<ProcResult> {
  return startCli(args, opts).done;
}
