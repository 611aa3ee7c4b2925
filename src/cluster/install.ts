// Local PostgreSQL server binaries, and running them: initdb and pg_ctl refuse root, so as root
// they run as the `postgres` OS user.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface PgInstall {
  readonly bin: string;
  readonly pkglibdir: string;
  readonly sharedir: string;
  readonly hasCitus: boolean;
}

/** Finds PostgreSQL server binaries: $PG_BIN, else pg_config, else /usr/lib/postgresql/<newest>/bin. */
export function findPgInstall(env: Readonly<Record<string, string | undefined>> = process.env): PgInstall | undefined {
  const candidates: string[] = [];
  if (env.PG_BIN) candidates.push(env.PG_BIN);
  if (existsSync('/usr/lib/postgresql')) {
    for (const v of readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)))
      candidates.push(`/usr/lib/postgresql/${v}/bin`);
  }
  for (const bin of candidates) {
    if (!existsSync(join(bin, 'initdb')) || !existsSync(join(bin, 'pg_ctl'))) continue;
    const pgConfig = existsSync(join(bin, 'pg_config')) ? join(bin, 'pg_config') : 'pg_config';
    let pkglibdir = join(bin, '..', 'lib');
    let sharedir = '';
    try {
      pkglibdir = execFileSync(pgConfig, ['--pkglibdir'], { encoding: 'utf8' }).trim();
      sharedir = execFileSync(pgConfig, ['--sharedir'], { encoding: 'utf8' }).trim();
    } catch {
      /* no pg_config: fall back to the Debian layout */
    }
    if (!sharedir) sharedir = join('/usr/share/postgresql', bin.split('/').at(-2) ?? '');
    const hasCitus =
      existsSync(join(pkglibdir, 'citus.so')) && existsSync(join(sharedir, 'extension', 'citus.control'));
    return { bin, pkglibdir, sharedir, hasCitus };
  }
  return undefined;
}

/** Whether this process runs as root (then the servers run as `postgres`). */
export const isRoot = (): boolean => process.getuid?.() === 0;

/** uid and gid of the `postgres` OS user. */
export function postgresIds(): { uid: number; gid: number } {
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
  };
}

/** Runs a server binary (as `postgres` when root); throws with its output when it fails. */
export function runServerTool(cmd: string, args: readonly string[]): void {
  const full = isRoot() ? (['runuser', ['-u', 'postgres', '--', cmd, ...args]] as const) : ([cmd, args] as const);
  const r = spawnSync(full[0], [...full[1]], { encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(
      `${cmd} ${args.join(' ')} failed (${r.status}): ${(r.stderr || r.stdout || String(r.error)).trim()}`,
    );
}

/** runServerTool without blocking the event loop (for stopping servers while other work goes on). */
export function runServerToolAsync(cmd: string, args: readonly string[]): Promise<void> {
  const full = isRoot() ? (['runuser', ['-u', 'postgres', '--', cmd, ...args]] as const) : ([cmd, args] as const);
  return new Promise((resolve, reject) => {
    execFile(full[0], [...full[1]], { encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err)
        reject(new Error(`${cmd} ${args.join(' ')} failed (${err.code}): ${(stderr || stdout || err.message).trim()}`));
      else resolve();
    });
  });
}
