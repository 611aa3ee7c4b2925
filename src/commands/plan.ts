// `citus-migrate plan`: diffs the manifest against a cluster and prints the one transaction
// that converges it. --offline plans against an empty cluster without any database.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CmError, EXIT, FileError, UsageError } from '../errors.js';
import { formatPlan, type PlanFormat } from '../format/index.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';
import { offlineBaseline } from '../plan/diff.js';
import { buildPlan, type PlanDocument } from '../plan/plan.js';
import type { CommandIo } from './io.js';
import { findManifest } from './manifest-file.js';

export interface PlanOptions {
  file?: string;
  offline?: boolean;
  database?: string;
  format?: PlanFormat;
  out?: string;
  detailedExitcode?: boolean;
}

/** Plans a loaded manifest against an empty cluster (what exists elsewhere is assumed present). */
export function planOffline(m: LoadedManifest, displayFile = m.file): PlanDocument {
  return buildPlan({
    desired: m.desired,
    actual: offlineBaseline(m.desired),
    source: { kind: 'offline', description: 'against an empty cluster; tables and routines declared without columns or file are assumed to exist, undistributed' },
    manifest: { file: displayFile, sha256: m.sha256 },
    warnings: m.warnings,
  });
}

/** Writes formatted output to --out or stdout. */
export function emit(text: string, out: string | undefined, io: CommandIo): void {
  if (out === undefined || out === '-') { io.stdout(text); return; }
  try {
    writeFileSync(resolve(io.cwd, out), text);
  } catch (e) {
    throw new FileError(`cannot write ${out}: ${(e as Error).message}`, out);
  }
  io.stderr(`wrote ${out}\n`);
}

/** CLI entry: returns the exit code (with --detailed-exitcode: 0 none, 2 changes). */
export async function planCommand(opts: PlanOptions, io: CommandIo): Promise<number> {
  if (opts.offline && opts.database !== undefined) throw new UsageError('--offline and --database conflict: an offline plan reads no database');
  const file = findManifest(opts.file, io.cwd);
  const m = await loadManifest(file, undefined, io.cwd);
  if (!opts.offline) {
    throw new CmError('live planning reads a cluster: give --database URL (or DATABASE_URL / PG* variables), or plan against an empty cluster with --offline', 'no_database', EXIT.usage);
  }
  const plan = planOffline(m, file);
  emit(formatPlan(plan, opts.format ?? 'text'), opts.out, io);
  if (plan.problems.length > 0) return EXIT.error;
  return opts.detailedExitcode && plan.changes ? EXIT.changes : EXIT.ok;
}
