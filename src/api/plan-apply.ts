// plan() and apply() of the library: the diff against a cluster (or an empty one), and the
// apply sequence of apply/run.ts.
import { withClient } from '../db/connect.js';
import { readLiveState } from '../own/live-state.js';
import { planLive, planOffline } from '../plan/from-manifest.js';
import type { PlanDocument } from '../plan/plan.js';
import { runApply } from '../apply/run.js';
import { addProof, provePlan } from '../apply/prove.js';
import { nothingToProve } from '../plan/proof.js';
import { OptionsError } from '../errors.js';
import type { ApplyEvent, ApplyResult, ApplyRunOptions, SavedPlanSource } from '../apply/run-types.js';
import {
  applyOptionsSchema,
  checkOption,
  eventHandlerSchema,
  manifestInputSchema,
  planOptionsSchema,
  savedPlanSourceSchema,
  targetSchema,
} from './options.js';
import { toManifest, toTarget, type DatabaseTarget, type ManifestInput } from './target.js';

export interface PlanFunctionOptions {
  /** Every table that holds rows changes online (create_distributed_table_concurrently…). */
  readonly online?: boolean;
  /**
   * Run the plan on a copy of the database without rows first (`plan --prove`): in a scratch
   * database on the same server or cluster, or `{ on }` another one. The plan gets `proof`, and
   * a refusal or a plan that does not converge among its `problems`.
   */
  readonly prove?: boolean | { readonly on: DatabaseTarget };
}

/**
 * Plans the manifest against the cluster at `target` (or, with `'offline'`, against an empty
 * cluster without any database): the one transaction that converges it, with its hazards,
 * problems, unmanaged and not-managed objects. Reads only.
 *
 * @example
 * const p = await plan('postgresql://app@db/app', 'citus-migrate.yaml');
 * if (p.changes) console.log(formatPlan(p, 'text'));
 */
export async function plan(
  target: DatabaseTarget | 'offline',
  manifest: ManifestInput,
  options: PlanFunctionOptions = {},
): Promise<PlanDocument> {
  if (target !== 'offline') checkOption('plan', 'target', targetSchema, target);
  checkOption('plan', 'manifest', manifestInputSchema, manifest);
  const checked = checkOption('plan', 'options', planOptionsSchema, options);
  const opts = { online: checked.online ?? false };
  if (target === 'offline' && checked.prove)
    throw new OptionsError('plan', [
      { path: 'options.prove', message: "needs a database: an 'offline' plan has none to copy" },
    ]);
  const m = await toManifest(manifest);
  if (target === 'offline') return planOffline(m, m.file, opts);
  const live = await withClient(toTarget(target), (c) => readLiveState(c));
  const p = planLive(m, live, m.file, opts);
  if (options.prove && nothingToProve(p) === undefined) {
    const at = typeof options.prove === 'object' ? toTarget(options.prove.on) : toTarget(target);
    addProof(p, await provePlan(at, live, m, p), m);
  }
  return p;
}

/**
 * Applies a manifest (or a saved plan with its manifest) to the cluster at `target`: under an
 * advisory lock it plans again, refuses problems, stale or altered plans and hazards not in
 * `options.allowHazards`, waits for the cluster guard, asks `options.approve`, records the apply
 * in citus_migrate.applies, runs the one transaction (retrying lock timeouts) and the steps
 * after COMMIT, and verifies that planning again is empty. Progress goes to `onEvent`, one
 * ApplyEvent at a time (`kind`: waiting_for_lock, starting, step_started, …).
 *
 * Resolves to `nothing_to_do`, `not_approved`, `rehearsed` or `applied`; refusals and failures
 * reject with a CmError (`code`, `exitCode`, `meta`) as the CLI reports them.
 */
export async function apply(
  target: DatabaseTarget,
  manifestOrPlan: ManifestInput | (Omit<SavedPlanSource, 'manifest'> & { readonly manifest: ManifestInput }),
  options: ApplyRunOptions = {},
  onEvent?: (event: ApplyEvent) => void,
): Promise<ApplyResult> {
  checkOption('apply', 'target', targetSchema, target);
  const saved = typeof manifestOrPlan === 'object' && manifestOrPlan !== null && 'savedPlan' in manifestOrPlan;
  checkOption('apply', 'manifestOrPlan', saved ? savedPlanSourceSchema : manifestInputSchema, manifestOrPlan);
  const opts = checkOption('apply', 'options', applyOptionsSchema, options);
  checkOption('apply', 'onEvent', eventHandlerSchema, onEvent);
  const source =
    saved && typeof manifestOrPlan === 'object'
      ? { ...manifestOrPlan, manifest: await toManifest(manifestOrPlan.manifest) }
      : await toManifest(manifestOrPlan);
  return runApply(toTarget(target), source, { ...options, allowHazards: opts.allowHazards }, onEvent);
}
