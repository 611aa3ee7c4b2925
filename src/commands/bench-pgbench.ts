// `bench --emit-pgbench DIR`: the manifest's workloads as pgbench scripts, and the command that
// runs them, instead of running bench itself.
import { isAbsolute, relative, resolve } from 'node:path';
import { connectionTarget, withClient } from '../db/connect.js';
import { bindDataBounds, readDataBounds } from '../bench/data-bounds.js';
import { emitPgbench, pgbenchCommand, pgbenchConnection } from '../bench/pgbench.js';
import { benchSettings, type BenchRunOptions } from '../bench/run.js';
import type { LoadedManifest } from '../manifest/load.js';
import { plural } from '../util/plural.js';
import { outputRoot } from '../files/safe-write.js';
import type { CommandIo } from './io.js';

/** Writes the scripts and run.sh to opts.emitPgbench; prints the command on stdout. */
export async function writePgbench(
  m: LoadedManifest,
  opts: BenchRunOptions & { database?: string; emitPgbench: string },
  io: CommandIo,
): Promise<void> {
  const { spec, clients, duration, transactions, seed, chosen, refs } = benchSettings(m, opts);
  // Bounds from the data are read now and written into the scripts as numbers.
  const values = refs.length
    ? await withClient(connectionTarget(opts.database, io.env), (c) => readDataBounds(c, refs))
    : new Map<string, number>();
  const selected = bindDataBounds({ ...spec, workloads: chosen }, values).workloads;
  const dir = resolve(io.cwd, opts.emitPgbench);
  const run = emitPgbench(
    { ...spec, workloads: selected },
    dir,
    {
      clients,
      ...(duration !== undefined ? { durationS: Math.round(duration / 1000) } : {}),
      ...(transactions !== undefined ? { transactions } : {}),
      seed,
    },
    outputRoot(io.cwd, dir, true),
  );
  // Script paths as the user named the folder: relative to where they are, or absolute.
  const path = (abs: string): string => (isAbsolute(opts.emitPgbench) ? abs : relative(io.cwd, abs));
  const conn = pgbenchConnection(opts.database, io.env);
  io.stdout(`${pgbenchCommand(run, path, conn.word)}\n`);
  io.stderr(
    `wrote ${plural(selected.length, 'pgbench script')} and run.sh to ${opts.emitPgbench}\n${conn.note ? `${conn.note}\n` : ''}`,
  );
}
