// A plan for a loaded manifest: against an empty cluster (offline) or against a live state read
// from one. Pure but for the default `now` (time partitions): reading the cluster is
// introspect/read-database.ts's.
import type { RoutineSourceFile } from './checks/broken-callers.js';
import { basename, join } from 'node:path';
import type { LiveState } from '../model/live-state.js';
import type { LoadedManifest } from '../manifest/load.js';
import { offlineBaseline } from './diff/diff.js';
import { buildPlan, type PlanDocument } from './plan.js';
import type { ShardState } from '../model/shard-state.js';
import { checkShards } from './diff/shard-check.js';
import { declaredIsolations } from './diff/isolation.js';
import type { ClusterModel } from '../model/types.js';
import type { LockSettings } from './checks/lock-footprint.js';
import type { TableSizes } from './lock-estimate.js';

/** What a plan is asked for besides the manifest: the clock (time partitions) and `--online`. */
export interface PlanOptions {
  readonly now?: Date;
  readonly online?: boolean;
  /** `--shards`: every shard placement as read from its node, compared with its table. */
  readonly shards?: ShardState;
  /** Distributed tables' sizes over their shards, for the steps' time estimates. */
  readonly sizes?: TableSizes;
}

const onlineTables = (m: LoadedManifest, all: boolean | undefined) => (id: string) =>
  all === true || m.desired.tables[id]?.online === true;

/** Plans a loaded manifest against an empty cluster (what exists elsewhere is assumed present). */
export function planOffline(m: LoadedManifest, displayFile = m.file, opts: PlanOptions = {}): PlanDocument {
  return buildPlan({
    desired: m.desired,
    actual: offlineBaseline(m.desired),
    source: {
      kind: 'offline',
      description:
        'against an empty cluster; tables and routines declared without columns or file are assumed to exist, undistributed',
    },
    manifest: { file: displayFile, sha256: m.sha256, path: join(m.dir, basename(m.file)) },
    warnings: m.warnings,
    onlineAll: opts.online ?? false,
    prune: m.manifest.prune,
    ignore: m.manifest.ignore,
    defaultSchema: m.manifest.defaults.schema,
    now: opts.now ?? new Date(),
    online: { table: onlineTables(m, opts.online) },
    resolved: m,
  });
}

/** Plans a loaded manifest against a live state read from a cluster. Pure. */
export function planLive(
  m: LoadedManifest,
  live: LiveState,
  displayFile = m.file,
  opts: PlanOptions = {},
): PlanDocument {
  const nodes = live.doc.nodes;
  return buildPlan({
    desired: m.desired,
    actual: live.model,
    source: {
      kind: 'live',
      fingerprint: live.fingerprint,
      objects: live.objects,
      server: {
        database: live.doc.server.database,
        postgres: live.doc.server.version,
        citus: live.doc.server.citus,
        workers: nodes.filter((n) => n.group !== 0 && n.role === 'primary').length,
        metadataSynced: nodes.every((n) => n.group === 0 || (n.hasMetadata && n.metadataSynced)),
      },
    },
    manifest: { file: displayFile, sha256: m.sha256, path: join(m.dir, basename(m.file)) },
    onlineAll: opts.online ?? false,
    warnings: [...m.warnings, ...(live.warnings ?? [])],
    prune: m.manifest.prune,
    ignore: m.manifest.ignore,
    defaultSchema: m.manifest.defaults.schema,
    citusInstalled: live.citus,
    notManaged: withoutDeclaredIsolations(live.doc.notManaged ?? [], m.desired),
    recorded: live.recorded ?? {},
    now: opts.now ?? new Date(),
    ...(opts.shards ? { shards: checkShards(opts.shards) } : {}),
    ...(opts.sizes ? { sizes: opts.sizes } : {}),
    ...lockSettings(live),
    routineSources: routineSources(m),
    resolved: m,
    online: {
      table: onlineTables(m, opts.online),
      ...(live.doc.server.walLevel !== undefined ? { walLevel: live.doc.server.walLevel } : {}),
      ...(live.doc.server.outputPlugins !== undefined ? { outputPlugins: live.doc.server.outputPlugins } : {}),
    },
  });
}

/** The not-managed list without the isolated shards the manifest declares. */
function withoutDeclaredIsolations<T extends { kind: string; name: string }>(
  list: readonly T[],
  desired: ClusterModel,
): T[] {
  if (!list.some((x) => x.kind === 'shard isolation')) return [...list];
  const declared = declaredIsolations(desired);
  return list.filter((x) => x.kind !== 'shard isolation' || !declared.has(x.name));
}

/** The manifest's routine files by routine id, with their text as loaded (lines are counted there). */
function routineSources(m: LoadedManifest): Map<string, RoutineSourceFile> {
  const out = new Map<string, RoutineSourceFile>();
  for (const [id, info] of Object.entries(m.routineInfo)) {
    const file = m.manifest.routines[info.key]?.file;
    const text = m.routineTexts.get(id);
    if (file !== undefined && text !== undefined) out.set(id, { file, text });
  }
  return out;
}

/** The lock table settings the catalog query read, when it read them (a recorded fixture may not have). */
function lockSettings(live: LiveState): { locks?: LockSettings } {
  const { maxLocks, maxConnections, maxPrepared } = live.doc.server;
  if (maxLocks === undefined || maxConnections === undefined || !live.citus) return {};
  const workers = live.doc.nodes.filter((n) => n.group !== 0 && n.role === 'primary').length;
  return {
    locks: {
      maxLocksPerTransaction: maxLocks,
      maxConnections,
      maxPreparedTransactions: maxPrepared ?? 0,
      workers: Math.max(1, workers),
    },
  };
}
