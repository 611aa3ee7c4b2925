// `citus-migrate plan`: diffs the manifest against a cluster and prints the one transaction
// that converges it. --offline plans against an empty cluster without any database.
import { locatePlanProblems } from '../plan/problem-places.js';
import { nodeFsWith } from '../manifest/project-io.js';
import { dirname, relative, resolve } from 'node:path';
import { CmError, EXIT, UsageError } from '../errors.js';
import { loadAndRead, readShards, readSizes, type PendingRead } from '../own/read-database.js';
import type { PlanFormat } from '../format/formats.js';
import type { PlanDocument } from '../plan/plan.js';
import { emit, type CommandIo } from './io.js';
import { findManifest } from './manifest-file.js';
import { timed } from '../util/timings.js';
import { nothingToProve } from '../plan/proof.js';
import { connectionTarget } from '../db/connect.js';
import type { LoadedManifest } from '../manifest/load.js';
import type { LiveState } from '../model/live-state.js';

export interface PlanOptions {
  file?: string;
  offline?: boolean;
  database?: string;
  format?: PlanFormat;
  out?: string;
  detailedExitcode?: boolean;
  /** With --detailed-exitcode: unmanaged and not-managed objects count as pending (a drift check). */
  includeUnmanaged?: boolean;
  /** Every table that holds rows changes online. */
  online?: boolean;
  /** Also compare every shard on the nodes with its table on the coordinator. */
  shards?: boolean;
  /** Run the plan on a copy of the database without rows first (apply/prove.ts). */
  prove?: boolean;
  /** With prove: where the copy is built (else the plan's own server or cluster). */
  proveOn?: string;
}

/**
 * CLI entry: returns the exit code (with --detailed-exitcode: 0 none, 2 changes). `started`: the
 * catalog read of opts.database the CLI began once the arguments were parsed, if it did.
 */
export async function planCommand(opts: PlanOptions, io: CommandIo, started?: PendingRead): Promise<number> {
  if (opts.includeUnmanaged && !opts.detailedExitcode)
    throw new UsageError(
      '--include-unmanaged changes what --detailed-exitcode counts as pending; alone it does nothing (add --detailed-exitcode)',
    );
  if (opts.offline && opts.database !== undefined)
    throw new UsageError('--offline and --database conflict: an offline plan reads no database');
  if (opts.offline && opts.shards)
    throw new UsageError('--offline and --shards conflict: an offline plan reads no shards');
  if (opts.proveOn !== undefined && !opts.prove)
    throw new UsageError('--prove-on says where --prove builds its copy; alone it does nothing (add --prove)');
  if (opts.offline && opts.prove)
    throw new UsageError('--offline and --prove conflict: --prove copies the database the plan is made against');
  const file = findManifest(opts.file, io.cwd);
  // A JSON plan written to a file names its manifest relative to that file's folder, so
  // `apply --plan` finds it from anywhere (the absolute path is recorded too).
  const shown =
    opts.format === 'json' && opts.out !== undefined && opts.out !== '-'
      ? relative(dirname(resolve(io.cwd, opts.out)), resolve(io.cwd, file)) || file
      : file;
  // The planner and the formatters load while the server answers the catalog query.
  let planner: Promise<PlanModules> | undefined;
  const loadPlanner = (): Promise<PlanModules> => (planner ??= planModules());
  let plan: PlanDocument;
  let locate: ((path: readonly (string | number)[]) => Promise<string | undefined>) | undefined;
  if (opts.offline) {
    const { loadManifest } = await import('../manifest/load.js');
    const m = await loadManifest(file, nodeFsWith(io.env), io.cwd);
    locate = m.locate;
    const { planOffline } = await loadPlanner();
    plan = timed('diff', () => planOffline(m, shown, { online: opts.online ?? false }));
  } else {
    // --shards: the placements are read on a connection of their own while the catalog query runs
    // (the workers' part of it and the coordinator's overlap); a rejection waits for its await.
    const shardsRead = opts.shards ? readShards(opts.database, io.env) : undefined;
    shardsRead?.catch(() => undefined);
    const { m, live } = await loadAndRead(
      file,
      opts.database,
      io,
      () => void loadPlanner().catch(() => undefined),
      started,
    );
    if (opts.shards && !live.citus)
      throw new UsageError('--shards: this database has no citus extension, so no shards');
    const shards = shardsRead ? await shardsRead : undefined;
    locate = m.locate;
    const { planLive } = await loadPlanner();
    const planOpts = { online: opts.online ?? false, ...(shards ? { shards } : {}) };
    plan = timed('diff', () => planLive(m, live, shown, planOpts));
    // A step that works through a distributed table's rows: its time estimate needs the shards' sizes.
    const sizes = await readSizes(opts.database, io.env, live, plan);
    if (sizes) plan = timed('diff', () => planLive(m, live, shown, { ...planOpts, sizes }));
    if (opts.prove) await prove(plan, m, live, opts, io);
  }
  await locatePlanProblems(plan, locate!);
  const toStdout = opts.out === undefined || opts.out === '-';
  const { formatPlan } = await loadPlanner();
  const text = timed('render', () => formatPlan(plan, opts.format ?? 'text', toStdout && io.color?.stdout));
  timed('write', () => emit(text, opts.out, io));
  if (plan.problems.length > 0) return EXIT.error;
  const drift = opts.includeUnmanaged && (plan.unmanaged.length > 0 || plan.notManaged.length > 0);
  // A secret not compared (its variable unset) may differ: a drift check never passes it as none.
  const uncompared = plan.warnings.some((w) => w.code === 'secret_unset');
  return opts.detailedExitcode && (plan.changes || drift || uncompared) ? EXIT.changes : EXIT.ok;
}

/** --prove: runs the plan on a scratch copy (a plan with problems or no changes has nothing to prove). */
async function prove(
  plan: PlanDocument,
  m: LoadedManifest,
  live: LiveState,
  opts: PlanOptions,
  io: CommandIo,
): Promise<void> {
  const nothing = nothingToProve(plan);
  if (nothing !== undefined) {
    io.stderr(`--prove: nothing to prove (${nothing})\n`);
    return;
  }
  const { provePlan, addProof } = await import('../apply/prove.js');
  const at = connectionTarget(opts.proveOn ?? opts.database, io.env);
  io.stderr(
    `--prove: building a copy of the database without rows on ${at.label.replace(/\/[^/]*$/, '')} and running the plan there\n`,
  );
  // Ctrl-C / SIGTERM: the scratch database is dropped at once (its sessions ended with it), so the
  // proof fails where it is, and nothing is left behind. The database itself was never touched.
  let drop: (() => Promise<string[]>) | undefined;
  let stopped: Promise<string[]> | undefined;
  const unsubscribe = io.onInterrupt?.((signal, again) => {
    if (again) io.stderr(`--prove: ${signal} again: exiting; a scratch database citus_migrate_prove_… may be left\n`);
    else {
      io.stderr(`--prove: ${signal}: dropping the scratch database and stopping\n`);
      stopped ??= drop?.() ?? Promise.resolve([]);
    }
  });
  try {
    addProof(
      plan,
      await timed('prove', () =>
        provePlan(at, live, m, plan, (d) => {
          drop = d;
          if (stopped) stopped = d(); // the signal came before the scratch database was there
        }),
      ),
      m,
    );
  } catch (e) {
    if (!stopped) throw e;
  } finally {
    unsubscribe?.();
  }
  if (stopped) {
    const left = await stopped;
    throw new CmError(
      left.length > 0
        ? `--prove interrupted; its scratch database could not be dropped on: ${left.join('; ')}`
        : '--prove interrupted: its scratch database was dropped; the database was not touched',
      'interrupted',
      EXIT.interrupted,
    );
  }
}

type PlanModules = typeof import('../plan/from-manifest.js') & typeof import('../format/index.js');

/** The planner and the formatters: loaded when a plan is made, not when the CLI starts. */
async function planModules(): Promise<PlanModules> {
  const [planner, format] = await Promise.all([import('../plan/from-manifest.js'), import('../format/index.js')]);
  return { ...planner, ...format };
}
