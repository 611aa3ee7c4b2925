// How the manifest reader reaches the files of its project: through an injectable ManifestFs (the
// node one checks every file, project-files.ts), each refusal a problem located at the manifest
// key that names the file.
import { statSync } from 'node:fs';
import { relative, resolve as resolvePath } from 'node:path';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import { FileRefusal, listProjectSql, MAX_MANIFEST_BYTES, readProjectFile, readTextFile } from './project-files.js';
import type { ResolveIo } from './resolve-context.js';

/** Reads the manifest and the files of its project; injectable for tests. May throw FileRefusal. */
export interface ManifestFs {
  readFile(absPath: string): string;
  size(absPath: string): number;
  /** A file of the project folder `root` (readFile when absent). */
  readProjectFile?(absPath: string, root: string): string;
  /** The .sql files under a folder (relative paths, sorted), or undefined when absPath is not a folder. */
  listSql?(absPath: string, root: string): string[] | undefined;
  /** The environment user mappings' `${env:NAME}` options are read from (default: none set). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export const nodeFs: ManifestFs = {
  readFile: (p) => readTextFile(p, MAX_MANIFEST_BYTES),
  size: (p) => statSync(p).size,
  readProjectFile: (p, root) => readProjectFile(root, p),
  listSql: (p, root) => listProjectSql(root, p),
  env: process.env,
};

/** nodeFs with another environment (the CLI's, which tests give). */
export const nodeFsWith = (env: Readonly<Record<string, string | undefined>>): ManifestFs => ({ ...nodeFs, env });

/** The files of the project folder `dir` for resolveManifest, each read once; `readChecked` reads one already resolved. */
export function projectIo(
  dir: string,
  fs: ManifestFs,
  problems: ProblemList,
): ResolveIo & { readChecked(abs: string): string } {
  // Each file is read once per load, whoever asks (the routine's resolve, the locality analysis).
  const read = new Map<string, string>();
  const readChecked = (abs: string): string => {
    let text = read.get(abs);
    if (text === undefined) {
      text = fs.readProjectFile?.(abs, dir) ?? fs.readFile(abs);
      read.set(abs, text);
    }
    return text;
  };
  // A path that leaves the folder by its spelling (../x, /etc/x); links are resolved by project-files.ts.
  const outside = (rel: string, path: Path, what: string): string | undefined => {
    const abs = resolvePath(dir, rel);
    const inside = relative(dir, abs);
    if (!inside.startsWith('..') && resolvePath(inside) !== inside) return abs;
    problems.error(path, 'file_outside_project', `${what}${JSON.stringify(rel)} is outside the project directory`);
    return undefined;
  };
  return {
    readChecked,
    listSql(rel: string, path: Path) {
      const abs = outside(rel, path, '');
      if (abs === undefined) return undefined;
      try {
        const listed = fs.listSql?.(abs, dir);
        return listed === undefined ? [rel] : listed.map((f) => `${rel.replace(/\/+$/, '')}/${f}`);
      } catch (e) {
        if (!(e instanceof FileRefusal)) throw e;
        const shown = e.entry === undefined ? rel : `${rel.replace(/\/+$/, '')}/${e.entry}`;
        problems.error(path, e.code, `${JSON.stringify(shown)} ${e.message}`);
        return undefined;
      }
    },
    readFile(rel: string, path: Path) {
      const abs = outside(rel, path, 'file ');
      if (abs === undefined) return undefined;
      try {
        return readChecked(abs);
      } catch (e) {
        if (e instanceof FileRefusal) {
          const at = e.at ? `${rel}:${e.at.line}:${e.at.col}: ` : '';
          problems.error(path, e.code, `${at}file ${JSON.stringify(rel)} ${e.message}`);
          return undefined;
        }
        const code = (e as NodeJS.ErrnoException).code;
        problems.error(
          path,
          'file_unreadable',
          code === 'ENOENT'
            ? `file ${JSON.stringify(rel)} does not exist`
            : `cannot read file ${JSON.stringify(rel)}: ${(e as Error).message}`,
        );
        return undefined;
      }
    },
  };
}
