// Warnings where a user looks (validate, plan): a statement inside a delegated routine that leaves
// the worker's shard, at its file:line. Only routines with a file are read here; `analyze` reads
// the others from the cluster.
import { dirname, join } from 'node:path';
import type { Problem } from '../errors.js';
import type { ClusterModel } from '../model/types.js';
import { analyzeRoutine, delegatedRoutines } from './analyze.js';

const CONSEQUENCE = {
  cross_shard: 'the delegated call runs it as a distributed transaction from the worker',
  coordinator: 'it needs the coordinator: a trip back from the worker',
} as const;

/**
 * One warning per statement of a delegated routine that is cross_shard or coordinator. `files`
 * gives, by routine id, the manifest key and the routine file (relative to the manifest) with its text.
 */
export function localityWarnings(
  desired: ClusterModel,
  files: ReadonlyMap<string, { key: string; file: string; text: string }>,
  manifestFile: string,
  defaultSchema: string,
): Problem[] {
  const out: Problem[] = [];
  const sources = delegatedRoutines(desired, (r) => {
    const f = files.get(r.id);
    return f && r.definition ? { definition: r.definition, file: f.file, fileText: f.text } : {};
  });
  for (const src of sources) {
    const key = files.get(src.routine.id)!.key;
    for (const s of analyzeRoutine(src, desired, defaultSchema).statements) {
      if (s.locality !== 'cross_shard' && s.locality !== 'coordinator') continue;
      const sql = s.sql.length > 80 ? `${s.sql.slice(0, 77)}...` : s.sql;
      out.push({
        severity: 'warning',
        code: `statement_${s.locality}`,
        path: `routines.${key}`,
        file: join(dirname(manifestFile), src.file!),
        line: s.line,
        message: `${s.locality}: ${s.why} (${sql}); ${CONSEQUENCE[s.locality]}`,
      });
    }
  }
  return out;
}
