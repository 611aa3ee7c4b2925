// What `ps` shows of the CLI. A password in `--database` would stay readable there (and in
// /proc/PID/cmdline) for the whole run; the title replaces the command line, with the value of
// --database masked where its secrets were written (or entirely, when it does not parse).
import { parseConnection } from '../db/database-url.js';

function masked(value: string): string {
  try {
    return parseConnection(value).masked;
  } catch {
    return '********';
  }
}

/** The arguments with each --database value masked. */
export function titleArgs(argv: readonly string[]): string[] {
  return argv.map((a, i) => {
    if (argv[i - 1] === '--database') return masked(a);
    if (a.startsWith('--database=')) return `--database=${masked(a.slice('--database='.length))}`;
    return a;
  });
}

/**
 * Replaces the process title (the command line `ps` shows; on Linux libuv writes it over the
 * original argv memory) when an argument carries a --database value. Node cannot make a title
 * longer than the original command line, so the masked one always fits.
 */
export function hideDatabaseArgument(argv: readonly string[]): void {
  const shown = titleArgs(argv);
  if (shown.every((a, i) => a === argv[i])) return;
  process.title = ['citus-migrate', ...shown].join(' ');
}
