// Runs CLI commands in order against one database, each bounded in time, and says which ended
// otherwise than expected (a command that hangs is a failure too, not a stuck test).
import { cli } from './run-cli.js';

/** A command's arguments (`-f DIR` added unless `noManifest`) and the exit code it must give. */
export interface Expected {
  readonly args: readonly string[];
  readonly code: number;
  readonly noManifest?: boolean;
}

/**
 * Each command that exited otherwise than expected, with its output; [] when all did. `check`,
 * run after each command, adds what it finds wrong then (a breach), naming the command.
 */
export async function runCommands(
  url: string,
  dir: string,
  commands: readonly Expected[],
  check?: () => Promise<string[]>,
): Promise<string[]> {
  const failures: string[] = [];
  for (const { args, code, noManifest } of commands) {
    const full = noManifest ? [...args] : [...args, '-f', dir];
    const r = await Promise.race([
      cli(full, { env: { DATABASE_URL: url } }).catch((e: Error) => ({ code: -1, stdout: '', stderr: e.message })),
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        setTimeout(() => resolve({ code: -2, stdout: '', stderr: 'still running after 90 s' }), 90_000).unref(),
      ),
    ]);
    if (r.code !== code) failures.push(`${full.join(' ')}: exit ${r.code} (expected ${code})\n${r.stderr}${r.stdout}`);
    for (const found of (await check?.()) ?? []) failures.push(`after ${full.join(' ')}: ${found}`);
  }
  return failures;
}
