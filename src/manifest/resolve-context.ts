// What the resolve steps share, below all of them: how they read project files, what resolving
// tables leaves for the later rules, and how a manifest key becomes a qualified name.
import type { ColocationGroup, Table } from '../model/types.js';
import { identifierProblem, parseQualifiedKey, type QualifiedName } from '../sql/quote.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';

export interface ResolveIo {
  /** Reads a routine file relative to the project; reports its own problems and returns undefined. */
  readFile(rel: string, path: Path): string | undefined;
  /** The .sql files a `sql:` entry names: the file itself, or a folder's .sql files (sorted, recursively). */
  listSql(rel: string, path: Path): readonly string[] | undefined;
}

/** What resolving tables leaves for the later rules. */
export interface TableContext {
  readonly tables: Record<string, Table>;
  readonly keyOf: Map<string, string>; // table id -> manifest key
  readonly groups: Record<string, ColocationGroup>;
  readonly groupColumnType: Map<string, { type: string; table: string }>;
  readonly defaultSchema: string;
  /** Resolves a table reference written in the manifest to a declared table id. */
  lookup(ref: string): string | undefined;
}

/** Parses a manifest key into a qualified name, reporting a problem when it is not one. */
export function qualifiedKey(
  key: string,
  defaultSchema: string,
  path: Path,
  problems: ProblemList,
  what: string,
): QualifiedName | undefined {
  const q = parseQualifiedKey(key, defaultSchema);
  if ('error' in q) {
    problems.error(path, 'invalid_name', `${what} name ${JSON.stringify(key)} ${q.error}`, true);
    return undefined;
  }
  for (const part of [q.schema, q.name]) {
    const why = identifierProblem(part);
    if (why) {
      problems.error(path, 'invalid_name', `${what} name ${JSON.stringify(part)} ${why}`, true);
      return undefined;
    }
  }
  return q;
}
