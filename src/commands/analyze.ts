// `citus-migrate analyze`: finds the manifest (optional with --database), runs the library's
// analyze (api/analyze.ts) and prints its report.
import { analyze } from '../api/analyze.js';
import { nodeFsWith } from '../manifest/project-io.js';
import { FileError } from '../errors.js';
import { localityCounts, type AnalysisDocument } from '../locality/analyze.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';
import { connectionTarget } from '../db/connect.js';
import { plural } from '../util/plural.js';
import type { CommandIo } from './io.js';
import { findManifest } from './manifest-file.js';

export interface AnalyzeOptions {
  file?: string;
  database?: string;
  format?: 'text' | 'json';
}

/** The short text report: a line per routine, and one per statement that leaves the shard. */
export function analysisText(doc: AnalysisDocument): string {
  if (doc.routines.length === 0)
    return 'No delegated routines with a body to analyse (a routine needs distributed_by and a file, or --database).\n';
  const lines: string[] = [];
  for (const r of doc.routines) {
    const head = `${r.routine} by ${r.distributedBy}${r.colocation ? ` (colocation ${r.colocation})` : ''}${r.delegation === 'manifest' ? ' [not delegated in the cluster yet: as the manifest declares it]' : ''}`;
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
  let m: LoadedManifest | undefined;
  try {
    m = await loadManifest(findManifest(opts.file, io.cwd), nodeFsWith(io.env), io.cwd);
  } catch (e) {
    // With a database, a manifest is optional: the cluster's own routines are analysed.
    if (!(e instanceof FileError && opts.file === undefined && opts.database !== undefined)) throw e;
  }
  const doc = await analyze(m, opts.database !== undefined || !m ? connectionTarget(opts.database, io.env) : undefined);
  io.stdout(opts.format === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : analysisText(doc));
  return 0;
}
