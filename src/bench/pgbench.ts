// --emit-pgbench: the same workload as pgbench custom scripts (one per workload, with \set lines)
// and the command line that runs them with their weights, to cross-check with pgbench.
import { basename, join, resolve } from 'node:path';
import { parseDatabaseUrl, type DatabaseUrl } from '../db/database-url.js';
import { CmError, EXIT } from '../errors.js';
import type { BenchSpec } from '../manifest/resolve-bench.js';
import type { ResolvedParam } from '../manifest/resolve-bench.js';
import { writeOutputs, type OutputFile } from '../files/safe-write.js';
import { shellCommand, type ShellWord } from '../util/shell.js';
import { literal, placeholders, replacePlaceholders } from './statement.js';

function setLine(p: ResolvedParam, i: number, runC: number): string {
  const v = `p${i + 1}`;
  if ('int' in p) return `\\set ${v} random(${p.int[0]}, ${p.int[1]})`;
  if ('nurand' in p) {
    const [A, x, y] = p.nurand;
    return `\\set ${v} (((random(0, ${A}) | random(${x}, ${y})) + ${runC % (A + 1)}) % (${y - x + 1})) + ${x}`;
  }
  if ('const' in p && typeof p.const === 'number' && Number.isInteger(p.const)) return `\\set ${v} ${p.const}`;
  if ('pick' in p && p.pick.every((x) => typeof x === 'number' && Number.isInteger(x))) {
    return `\\set ${v} ${p.pick.map((x, k) => (k === p.pick.length - 1 ? String(x) : `case when random(1, ${p.pick.length - k}) = 1 then ${x} else`)).join(' ')}${' end'.repeat(p.pick.length - 1)}`;
  }
  return '';
}

/** pgbench's options and weighted scripts for a workload mix. */
export interface PgbenchRun {
  readonly options: readonly string[];
  /** Absolute paths of the scripts, with their weights. */
  readonly scripts: readonly { readonly path: string; readonly weight: number }[];
}

/** The pgbench command line: scripts named by `path`, then the connection argument if any. */
export function pgbenchCommand(run: PgbenchRun, path: (abs: string) => string, connection?: ShellWord): string {
  return shellCommand([
    'pgbench',
    ...run.options,
    ...run.scripts.flatMap((s) => ['-f', `${path(s.path)}@${s.weight}`]),
    ...(connection ? [connection] : []),
  ]);
}

/**
 * What to pass pgbench as its connection: the --database URL without its password (printed
 * commands never carry one; `note` says so), else "$DATABASE_URL" when that is set, else nothing
 * (pgbench reads the PG* variables itself).
 */
export function pgbenchConnection(
  database: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): { word?: ShellWord; note?: string } {
  const fromEnv = { raw: '"$DATABASE_URL"' };
  if (database === undefined) return env.DATABASE_URL ? { word: fromEnv } : {};
  const notPrinted = {
    word: fromEnv,
    note: 'the --database value is not printed: set DATABASE_URL to it (and the password in PGPASSWORD) when you run the command',
  };
  let parsed: DatabaseUrl;
  let url: URL;
  try {
    parsed = parseDatabaseUrl(database);
    url = new URL(database);
  } catch {
    // A form the URL class does not read (key=value, a socket directory as host): print no part of it.
    return notPrinted;
  }
  if (parsed.password === undefined) return { word: url.href };
  url.password = '';
  url.searchParams.delete('password');
  // The URL class and libpq must read what is left the same way, with no password left in it
  // (the URL class reads `u:12#x@h` as host u, port 12 and a fragment).
  const { password: _dropped, ...rest } = parsed;
  let left: DatabaseUrl | undefined;
  try {
    left = parseDatabaseUrl(url.href);
  } catch {
    left = undefined;
  }
  if (left === undefined || JSON.stringify(left) !== JSON.stringify(rest)) return notPrinted;
  return {
    word: url.href,
    note: 'the password in --database is not printed: pass it in PGPASSWORD (or ~/.pgpass) when you run the command',
  };
}

/**
 * Writes DIR/<workload>.sql and DIR/run.sh (util/safe-write.ts: checked under `root`, never
 * through a link); returns pgbench's options and scripts.
 */
export function emitPgbench(
  spec: BenchSpec,
  dir: string,
  opts: { clients: number; durationS?: number; transactions?: number; seed: number },
  root: string = dir,
): PgbenchRun {
  const outputs: OutputFile[] = [];
  const runC = opts.seed;
  let simple = false;
  const scripts: { path: string; weight: number }[] = [];
  for (const w of spec.workloads) {
    const sets: string[] = [];
    const subst = w.params.map((p, i) => {
      const line = setLine(p, i, runC);
      if (line) {
        sets.push(line);
        return `:p${i + 1}`;
      }
      if ('const' in p) return literal(p.const);
      throw new CmError(
        `workload ${w.name}: parameter $${i + 1} (${Object.keys(p)[0]}) has no pgbench equivalent`,
        'pgbench_unsupported',
        EXIT.error,
      );
    });
    // At the parser's placeholders only: a "$1" inside a string literal or comment stays as written.
    const sql = replacePlaceholders(w.sql, placeholders(w.sql), (n) => subst[n - 1]!);
    if (w.protocol === 'simple-literals') simple = true;
    const path = resolve(dir, `${w.name}.sql`);
    outputs.push({
      path,
      data: `-- ${w.name}: written by citus-migrate bench --emit-pgbench\n${sets.join('\n')}${sets.length ? '\n' : ''}${sql};\n`,
    });
    scripts.push({ path, weight: w.weight });
  }
  // CALL is delegated only with literal values: pgbench's simple mode interpolates them as text.
  const length =
    opts.transactions !== undefined
      ? ['-t', String(Math.max(1, Math.ceil(opts.transactions / opts.clients)))]
      : ['-T', String(opts.durationS ?? 30)];
  const run: PgbenchRun = {
    options: [
      '-n',
      '-c',
      String(opts.clients),
      '-j',
      String(Math.min(opts.clients, 4)),
      ...length,
      '-M',
      simple ? 'simple' : 'prepared',
      `--random-seed=${opts.seed}`,
    ],
    scripts,
  };
  // run.sh runs from its own folder and reads the URL from the environment: no secret on disk.
  outputs.push({
    path: join(dir, 'run.sh'),
    data: `#!/bin/sh\n# pgbench cross-check of the citus-migrate bench workload\ncd "$(dirname "$0")"\n${pgbenchCommand(run, (p) => basename(p), { raw: '"$DATABASE_URL"' })}\n`,
    mode: 0o755,
  });
  writeOutputs(root, outputs, true);
  return run;
}
