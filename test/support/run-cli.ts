// Runs the CLI in-process with captured output.
import { runCli } from '../../src/cli-program.js';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function cli(
  args: readonly string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env: opts.env ?? {},
    isTTY: false,
    cwd: opts.cwd ?? process.cwd(),
  });
  return { code, stdout, stderr };
}

/** When a --timings phase started (ms since the process did), from the CLI's stderr; NaN when absent. */
export function phaseStart(stderr: string, phase: string): number {
  return Number(new RegExp(`timings: ${phase} +([0-9.]+)`).exec(stderr)?.[1] ?? Number.NaN);
}
