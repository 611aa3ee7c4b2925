// `citus-migrate plan`: diffs the manifest against a cluster and prints the one transaction
// that converges it. --offline plans against an empty cluster without any database.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXIT, FileError, UsageError } from '../errors.js';
import { connectionTarget, withClient } from '../db/connect.js';
import { readLiveState } from '../introspect/read.js';
import type { LiveState } from '../introspect/to-model.js';
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
  /** With --detailed-exitcode: unmanaged and not-managed objects count as pending (a drift check). */
  includeUnmanaged?: boolean;
}

/** Plans a loaded manifest against an empty cluster (what exists elsewhere is assumed present). */
export function planOffline(m: LoadedManifest, displayFile = m.file): PlanDocument {
  return buildPlan({
    desired: m.desired,
    actual: offlineBaseline(m.desired),
    source: { kind: 'offline', description: 'against an empty cluster; tables and routines declared without columns or file are assumed to exist, undistributed' },
    manifest: { file: displayFile, sha256: m.sha256 },
    warnings: m.warnings,
    prune: m.manifest.prune,
    ignore: m.manifest.ignore,
  });
}

/** Plans a loaded manifest against a live state read from a cluster. Pure. */
export function planLive(m: LoadedManifest, live: LiveState, displayFile = m.file): PlanDocument {
  const nodes = live.doc.nodes;
  return buildPlan({
    desired: m.desired,
    actual: live.model,
    source: {
      kind: 'live', fingerprint: live.fingerprint, objects: live.objects,
      server: {
        database: live.doc.server.database, postgres: live.doc.server.version, citus: live.doc.server.citus,
        workers: nodes.filter((n) => n.group !== 0 && n.role === 'primary').length,
        metadataSynced: nodes.every((n) => n.group === 0 || (n.hasMetadata && n.metadataSynced)),
      },
    },
    manifest: { file: displayFile, sha256: m.sha256 },
    warnings: m.warnings,
    prune: m.manifest.prune,
    ignore: m.manifest.ignore,
    citusInstalled: live.citus,
    notManaged: live.doc.notManaged ?? [],
    recorded: live.recorded ?? {},
  });
}

/** Connects and reads the live state. */
export async function readDatabase(database: string | undefined, env: CommandIo['env'], signal?: AbortSignal, onSent?: () => void): Promise<LiveState & { roundTrips: number }> {
  const target = connectionTarget(database, env);
  return withClient(target, (c) => readLiveState(c, onSent), signal);
}

/**
 * Loads the manifest while the cluster answers the catalog query: connects and sends the query
 * first (parsing the manifest holds the event loop, so the handshake must be over by then), so
 * the server's time and the manifest's parsing overlap. A manifest error still comes first, as if
 * the manifest had been loaded before the database was asked anything (the read only reads), and
 * closes the connection.
 */
export async function loadAndRead(file: string, database: string | undefined, io: CommandIo): Promise<{ m: LoadedManifest; live: LiveState & { roundTrips: number } }> {
  const stop = new AbortController();
  let sent: () => void = () => undefined;
  const querySent = new Promise<void>((resolve) => { sent = resolve; });
  const reading = readDatabase(database, io.env, stop.signal, () => sent());
  reading.catch(() => undefined); // awaited below, after the manifest; never unhandled
  // Not longer than a second: a slow or unreachable server must not delay a manifest error.
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<void>((resolve) => { timer = setTimeout(resolve, 1000); });
  await Promise.race([querySent, reading.then(() => undefined, () => undefined), giveUp]);
  clearTimeout(timer);
  try {
    const m = await loadManifest(file, undefined, io.cwd);
    return { m, live: await reading };
  } finally {
    stop.abort(); // a manifest error: the connection is not left to finish the read
  }
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
  let plan: PlanDocument;
  if (opts.offline) {
    plan = planOffline(await loadManifest(file, undefined, io.cwd), file);
  } else {
    const { m, live } = await loadAndRead(file, opts.database, io);
    plan = planLive(m, live, file);
  }
  emit(formatPlan(plan, opts.format ?? 'text'), opts.out, io);
  if (plan.problems.length > 0) return EXIT.error;
  const drift = opts.includeUnmanaged && (plan.unmanaged.length > 0 || plan.notManaged.length > 0);
  return opts.detailedExitcode && (plan.changes || drift) ? EXIT.changes : EXIT.ok;
}
