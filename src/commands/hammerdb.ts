// `citus-migrate hammerdb`: the transaction that distributes a HammerDB TPROC-C schema the way
// HammerDB's Citus-compatible build does, for a schema HammerDB built without that option.
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { formatPlan, type PlanFormat } from '../format/index.js';
import { hammerdbManifest, type HammerdbVariant } from '../hammerdb/layout.js';
import { loadManifestText } from '../manifest/load.js';
import type { PlanDocument } from '../plan/plan.js';
import { emit, type CommandIo } from './io.js';
import { planOffline } from '../plan/from-manifest.js';
import { DEFAULT_SHARD_COUNT } from '../model/types.js';

export interface HammerdbOptions {
  variant?: string;
  shardCount?: string | number;
  schema?: string;
  format?: PlanFormat;
  out?: string;
  /** A fixed warehouse count for the bench mix; without it, max(w_id) is read before each run. */
  warehouses?: number;
  manifest?: boolean;
}

/** Builds the HammerDB distribution plan (offline). */
export async function hammerdbPlan(opts: {
  variant: HammerdbVariant;
  shardCount: number;
  schema?: string;
}): Promise<PlanDocument> {
  const text = hammerdbManifest(opts);
  const label = `hammerdb (${opts.variant}, ${opts.shardCount} shards)`;
  const m = await loadManifestText(text, label, join(process.cwd()));
  return planOffline(m, label);
}

/** CLI entry. */
export async function hammerdbCommand(opts: HammerdbOptions, io: CommandIo): Promise<number> {
  const variant = opts.variant ?? 'procedures';
  if (variant !== 'procedures' && variant !== 'functions')
    throw new UsageError(`--variant must be procedures or functions, got ${JSON.stringify(variant)}`);
  const shardCount = Number(opts.shardCount ?? DEFAULT_SHARD_COUNT);
  if (!Number.isInteger(shardCount) || shardCount < 1 || shardCount > 64000)
    throw new UsageError(
      `--shard-count must be an integer from 1 to 64000, got ${JSON.stringify(String(opts.shardCount))}`,
    );
  if (opts.manifest) {
    emit(
      hammerdbManifest({
        variant,
        shardCount,
        ...(opts.warehouses !== undefined ? { warehouses: opts.warehouses } : {}),
        ...(opts.schema ? { schema: opts.schema } : {}),
      }),
      opts.out,
      io,
    );
    return 0;
  }
  const plan = await hammerdbPlan({ variant, shardCount, ...(opts.schema ? { schema: opts.schema } : {}) });
  emit(formatPlan(plan, opts.format ?? 'sql'), opts.out, io);
  return 0;
}
