// `citus-migrate analyze`: for every delegated routine, where each SQL statement of its body runs
// once the call is on the worker (shard, reference, cross_shard, coordinator, unknown). Bodies come
// from the routine files; with --database, the cluster says which routines are delegated and how
// its tables are laid out, and routines without a file are read with pg_get_functiondef.
import { readProjectFile } from '../manifest/project-files.js';
import { dirname, join, resolve } from 'node:path';
import type { Routine } from '../model/types.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';
import { FileError } from '../errors.js';
import {
  analyzeRoutine,
  delegatedRoutines,
  localityCounts,
  type AnalysisDocument,
  type RoutineAnalysis,
  type RoutineSource,
} from '../locality/analyze.js';
import { loadPlpgsqlParser } from '../sql/plpgsql-check.js';
import { loadParser } from '../sql/pg-parse.js';
import { plural } from '../util/plural.js';
import type { CommandIo } from './io.js';
import { findManifest } from './manifest-file.js';
import { readDatabase } from '../introspect/read-database.js';

export interface AnalyzeOptions {
  file?: string;
  database?: string;
  format?: 'text' | 'json';
}

/** The manifest's routine files, by routine id: name as written and text. */
function routineFiles(m: LoadedManifest | undefined): Map<string, { file: string; text: string; definition: string }> {
  const out = new Map<string, { file: string; text: string; definition: string }>();
  if (!m) return out;
  for (const [id, info] of Object.entries(m.routineInfo)) {
    const file = m.manifest.routines[info.key]?.file;
    const definition = m.desired.routines[id]?.definition;
    if (!file || !definition) continue;
    out.set(id, { file: join(dirname(m.file), file), text: readProjectFile(m.dir, resolve(m.dir, file)), definition });
  }
  return out;
}

/** Reads what to analyse and analyses it. */
export async function analyze(opts: AnalyzeOptions, io: CommandIo): Promise<AnalysisDocument> {
  await loadParser();
  await loadPlpgsqlParser();
  let m: LoadedManifest | undefined;
  try {
    m = await loadManifest(findManifest(opts.file, io.cwd), undefined, io.cwd);
  } catch (e) {
    // With a database, a manifest is optional: the cluster's own routines are analysed.
    if (!(e instanceof FileError && opts.file === undefined && opts.database !== undefined)) throw e;
  }
  const files = routineFiles(m);
  const defaultSchema = m?.manifest.defaults?.schema ?? 'public';
  if (opts.database !== undefined || !m) {
    const live = await readDatabase(opts.database, io.env);
    const model = live.model;
    // The live routine ids are the manifest's (schema.name(canonical types)).
    const sources = delegatedRoutines(model, (r: Routine) => {
      const f = files.get(r.id);
      return f
        ? { definition: f.definition, file: f.file, fileText: f.text }
        : { ...(r.definition ? { definition: r.definition } : {}) };
    });
    const names = liveGroupNames(m, live.model);
    return document(
      sources
        .map((s) => analyzeRoutine(s, model, defaultSchema))
        .map((a) => ({ ...a, colocation: a.colocation && (names.get(a.colocation) ?? a.colocation) })),
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

/** The short text report: a line per routine, and one per statement that leaves the shard. */
export function analysisText(doc: AnalysisDocument): string {
  if (doc.routines.length === 0)
    return 'No delegated routines with a body to analyse (a routine needs distributed_by and a file, or --database).\n';
  const lines: string[] = [];
  for (const r of doc.routines) {
    const head = `${r.routine} by ${r.distributedBy}${r.colocation ? ` (colocation ${r.colocation})` : ''}`;
    if (r.skipped) {
      lines.push(`${head}: not analysed: ${r.skipped}`);
      continue;
    }
    const counts = Object.entries(localityCounts(r))
      .filter(([, n]) => n > 0)
      .map(([l, n]) => `${n} ${l}`);
    const away = r.statements.filter((s) => s.locality !== 'shard' && s.locality !== 'reference');
    lines.push(
      `${head}: ${counts.length ? counts.join(', ') : 'no statement touches a table'}${away.length === 0 && counts.length ? ' (every statement stays on the worker)' : ''}`,
    );
    for (const s of away)
      lines.push(
        `  ${r.file ?? 'line'}${r.file ? ':' : ' '}${s.line} ${s.locality}: ${s.why}\n      ${s.sql.length > 100 ? `${s.sql.slice(0, 97)}...` : s.sql}`,
      );
  }
  const total = doc.routines.reduce(
    (n, r) => n + r.statements.filter((s) => s.locality !== 'shard' && s.locality !== 'reference').length,
    0,
  );
  lines.push(
    '',
    total === 0
      ? `${plural(doc.routines.length, 'delegated routine')}: every statement stays on the worker the call is delegated to.`
      : `${plural(doc.routines.length, 'delegated routine')}: ${plural(total, 'statement')} ${total === 1 ? 'leaves' : 'leave'} the worker's shard (cross_shard: a distributed transaction from the worker; coordinator: a trip back).`,
  );
  return `${lines.join('\n')}\n`;
}

/** CLI entry. */
export async function analyzeCommand(opts: AnalyzeOptions, io: CommandIo): Promise<number> {
  const doc = await analyze(opts, io);
  io.stdout(opts.format === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : analysisText(doc));
  return 0;
}
