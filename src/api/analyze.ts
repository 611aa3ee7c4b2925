// analyze() of the library: for every delegated routine, where each SQL statement of its body
// runs once the call is on the worker. Bodies come from the routine files; with a database, the
// cluster says which routines are delegated and how its tables are laid out, and routines
// without a file are read with pg_get_functiondef.
import { dirname, join } from 'node:path';
import { withClient } from '../db/connect.js';
import { UsageError } from '../errors.js';
import { readLiveState } from '../own/live-state.js';
import {
  analyzeRoutine,
  delegatedRoutines,
  type AnalysisDocument,
  type RoutineAnalysis,
  type RoutineSource,
} from '../locality/analyze.js';
import type { LoadedManifest } from '../manifest/load.js';
import type { Routine } from '../model/types.js';
import { loadPlpgsqlParser } from '../sql/plpgsql-check.js';
import { loadParser } from '../sql/pg-parse.js';
import { checkOption, manifestInputSchema, targetSchema } from './options.js';
import { toManifest, toTarget, type DatabaseTarget, type ManifestInput } from './target.js';

/** The manifest's routine files, by routine id: name as written and text. */
function routineFiles(m: LoadedManifest | undefined): Map<string, { file: string; text: string; definition: string }> {
  const out = new Map<string, { file: string; text: string; definition: string }>();
  if (!m) return out;
  for (const [id, info] of Object.entries(m.routineInfo)) {
    const file = m.manifest.routines[info.key]?.file;
    const definition = m.desired.routines[id]?.definition;
    if (!file || !definition) continue;
    // The text loadManifest read: the file is not read again.
    const text = m.routineTexts.get(id);
    if (text !== undefined) out.set(id, { file: join(dirname(m.file), file), text, definition });
  }
  return out;
}

/**
 * For every delegated routine, where each SQL statement of its body runs once the call is on the
 * worker (shard, reference, cross_shard, coordinator, unknown). Bodies come from the manifest's
 * routine files; with `target`, the cluster says which routines are delegated and how its tables
 * are laid out, and routines without a file are read from it (then `manifest` may be undefined).
 */
export async function analyze(manifest: ManifestInput | undefined, target?: DatabaseTarget): Promise<AnalysisDocument> {
  if (manifest !== undefined) checkOption('analyze', 'manifest', manifestInputSchema, manifest);
  if (target !== undefined) checkOption('analyze', 'target', targetSchema, target);
  await loadParser();
  await loadPlpgsqlParser();
  const m = manifest === undefined ? undefined : await toManifest(manifest);
  const files = routineFiles(m);
  const defaultSchema = m?.manifest.defaults?.schema ?? 'public';
  if (target !== undefined || !m) {
    if (target === undefined) throw new UsageError('analyze needs a manifest or a database');
    const live = await withClient(toTarget(target), (c) => readLiveState(c));
    const model = live.model;
    // The live routine ids are the manifest's (schema.name(canonical types)).
    const sources = delegatedRoutines(model, (r: Routine) => {
      const f = files.get(r.id);
      return f
        ? { definition: f.definition, file: f.file, fileText: f.text }
        : { ...(r.definition ? { definition: r.definition } : {}) };
    });
    // The manifest's delegated routines the cluster does not delegate yet (the plan would):
    // analysed as declared, against the cluster's tables, and said so.
    const declared = m
      ? delegatedRoutines(m.desired, (r) => {
          const f = files.get(r.id);
          return f ? { definition: f.definition, file: f.file, fileText: f.text } : {};
        }).filter((s) => model.routines[s.routine.id]?.distribution?.argIndex === undefined)
      : [];
    const names = liveGroupNames(m, live.model);
    return document(
      [
        ...sources.map((s) => ({ ...analyzeRoutine(s, model, defaultSchema), delegation: 'cluster' as const })),
        ...declared.map((s) => ({ ...analyzeRoutine(s, model, defaultSchema), delegation: 'manifest' as const })),
      ].map((a) => ({ ...a, colocation: a.colocation && (names.get(a.colocation) ?? a.colocation) })),
    );
  }
  const model = m.desired;
  const sources: RoutineSource[] = delegatedRoutines(model, (r) => {
    const f = files.get(r.id);
    return f ? { definition: f.definition, file: f.file, fileText: f.text } : {};
  });
  return document(sources.map((s) => analyzeRoutine(s, model, defaultSchema)));
}

/** The manifest's name of each live colocation group (by its anchor table), where it has one. */
function liveGroupNames(m: LoadedManifest | undefined, live: LoadedManifest['desired']): Map<string, string> {
  const out = new Map<string, string>();
  for (const g of Object.values(m?.desired.groups ?? {})) {
    const d = live.tables[g.anchor]?.distribution;
    if (d?.kind === 'hash') out.set(d.group, g.name);
  }
  return out;
}

const document = (routines: RoutineAnalysis[]): AnalysisDocument => ({
  format: 'citus-migrate.analysis',
  formatVersion: 1,
  routines,
});
