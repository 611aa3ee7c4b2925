// introspect() and history() of the library: what the cluster has, as a manifest project, and
// the applies recorded in citus_migrate.applies.
import { withClient } from '../db/connect.js';
import { readApply, readHistory, type ApplyDetail, type HistoryRow } from '../own/history.js';
import { readLiveState } from '../own/live-state.js';
import { liveToProject } from '../introspect/to-manifest.js';
import type { NotManaged } from '../plan/plan.js';
import { applyIdSchema, checkOption, historyLimitSchema, introspectOptionsSchema, targetSchema } from './options.js';
import { toTarget, type DatabaseTarget } from './target.js';

/** A manifest of what a cluster has, and what it could not carry. */
export interface IntrospectResult extends ReturnType<typeof liveToProject> {
  /** Objects of kinds citus-migrate does not manage (listed at the top of the manifest). */
  readonly notManaged: readonly NotManaged[];
}

/**
 * Reads the cluster at `target` and writes what it has as a v1 manifest (`manifest`), with the
 * SQL and routine files it names (`files`, by path relative to the manifest) when `files` is
 * true; without files, SQL-defined objects and routine bodies are left out (counted in
 * `objectsLeftOut`). Reads only.
 */
export async function introspect(
  target: DatabaseTarget,
  options: { readonly defaultSchema?: string; readonly files?: boolean } = {},
): Promise<IntrospectResult> {
  checkOption('introspect', 'target', targetSchema, target);
  checkOption('introspect', 'options', introspectOptionsSchema, options);
  const live = await withClient(toTarget(target), (c) => readLiveState(c));
  const project = liveToProject(live, {
    ...(options.defaultSchema ? { defaultSchema: options.defaultSchema } : {}),
    files: options.files ?? false,
  });
  return { ...project, notManaged: live.doc.notManaged ?? [] };
}

/** The latest `limit` applies recorded in citus_migrate.applies, newest first (none: empty). */
export async function history(target: DatabaseTarget, limit = 50): Promise<HistoryRow[]> {
  checkOption('history', 'target', targetSchema, target);
  checkOption('history', 'limit', historyLimitSchema, limit);
  return withClient(toTarget(target), (c) => readHistory(c, limit));
}

/** Apply #id: its steps, outcome, times, manifest and error (CmError apply_not_found when absent). */
export async function historyEntry(target: DatabaseTarget, id: number): Promise<ApplyDetail> {
  checkOption('historyEntry', 'target', targetSchema, target);
  checkOption('historyEntry', 'id', applyIdSchema, id);
  return withClient(toTarget(target), (c) => readApply(c, id));
}
