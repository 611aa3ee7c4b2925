// Where a routine of the manifest comes from: its key (a name, or a signature for an overload)
// and its file, read with PostgreSQL's parser.
import { ParseFailure } from '../sql/pg-parse.js';
import { plpgsqlProblem } from '../sql/plpgsql-check.js';
import { parseRoutineSql, parseSignature, type ParsedRoutine } from '../sql/routine-parse.js';
import type { QualifiedName } from '../sql/quote.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import { qualifiedKey, type ResolveIo } from './resolve-context.js';
import type { ManifestRoutine } from './schema.js';

function lineCol(text: string, offset: number): string {
  // The parser reports byte offsets into the UTF-8 text.
  const before = Buffer.from(text, 'utf8').subarray(0, offset).toString('utf8').split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

/** Reads and parses a routine's file; problems located at file:line:col. */
export function readDefinition(
  r: ManifestRoutine,
  io: ResolveIo,
  path: Path,
  problems: ProblemList,
): { parsed: ParsedRoutine; text: string } | undefined {
  const text = io.readFile(r.file!, [...path, 'file']);
  if (text === undefined) return undefined;
  try {
    const parsed = parseRoutineSql(text);
    const bad =
      parsed.language === 'plpgsql' && parsed.body !== undefined ? plpgsqlProblem(text, parsed.body) : undefined;
    if (bad) {
      problems.error(
        [...path, 'file'],
        'invalid_routine_body',
        `${bad.position !== undefined ? `${r.file}:${lineCol(text, bad.position)}` : r.file}: PL/pgSQL: ${bad.message}`,
      );
      return undefined;
    }
    return { parsed, text };
  } catch (e) {
    const f = e as ParseFailure;
    const where = f.position !== undefined ? `${r.file}:${lineCol(text, f.position)}` : r.file;
    problems.error([...path, 'file'], 'invalid_routine_file', `${where}: ${f.message}`);
    return undefined;
  }
}

/**
 * A routine key: `name` / `schema.name`, or a signature `name(type, …)` that tells overloads
 * (routines of one name with other argument types) apart.
 */
export function keySignature(
  key: string,
  defaultSchema: string,
  path: Path,
  problems: ProblemList,
): { q: QualifiedName; argTypes?: string[] } | undefined {
  if (!key.trimEnd().endsWith(')')) {
    const q = qualifiedKey(key, defaultSchema, path, problems, 'routine');
    return q ? { q } : undefined;
  }
  try {
    const sig = parseSignature(key);
    return { q: { schema: sig.schema ?? defaultSchema, name: sig.name }, argTypes: sig.argTypes.map((t) => t.base) };
  } catch (e) {
    problems.error(path, 'invalid_name', `routine key ${JSON.stringify(key)}: ${(e as Error).message}`, true);
    return undefined;
  }
}
