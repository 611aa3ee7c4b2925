// The one way the tool writes a file (plan -o, introspect -o and its sql/ and routines/ files,
// bench --emit-pgbench, hammerdb, init, the cluster's state files). An output folder may hold
// links someone else left: a dangling `run.sh -> ~/bin/x` would have existsSync say "absent" and
// writeFileSync create ~/bin/x. So under the output's folder (`root`) no link may lead outside
// it, the file itself is never a link (O_NOFOLLOW) nor a hard link to another file, a new file
// is created exclusively (O_EXCL), and every path is checked before the first one is written.
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CmError, EXIT } from '../errors.js';

/** A file to write: its absolute path, its content and, for a new file, its mode. */
export interface OutputFile {
  readonly path: string;
  readonly data: string | Uint8Array;
  readonly mode?: number;
}

const inside = (root: string, p: string): boolean => {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/**
 * The folder an output is checked under: the working folder when the output lies inside it (a
 * link anywhere below it that leads elsewhere is refused), else the output's own folder as the
 * user named it (`dir` itself for an output that is a folder).
 */
export function outputRoot(cwd: string, abs: string, isFolder = false): string {
  return inside(resolve(cwd), abs) ? resolve(cwd) : isFolder ? abs : dirname(abs);
}

const refusal = (path: string, why: string): CmError =>
  new CmError(`refusing to write ${path}: ${why}; nothing was written`, 'unsafe_output', EXIT.error, { path });

const errno = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;

/** The root's real path; a root that does not exist yet is made when `create` (it is the folder the user named), else undefined. */
function realRootOf(root: string, create: boolean): string | undefined {
  try {
    return realpathSync(root);
  } catch (e) {
    if (errno(e) !== 'ENOENT') throw e;
    if (!create) return undefined;
    mkdirSync(root, { recursive: true });
    return realpathSync(root);
  }
}

/** lstat, or undefined when nothing is there. */
function look(p: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(p);
  } catch (e) {
    if (errno(e) === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Walks the folders between `root` and `file`: each must be a folder, or a link to a folder
 * inside root. `create`: makes the missing ones (one at a time, never through a link).
 */
function checkFolders(root: string, realRoot: string, file: string, create: boolean): void {
  const parts = relative(root, dirname(file)).split(sep).filter(Boolean);
  let at = root;
  for (const part of parts) {
    at = join(at, part);
    let st = look(at);
    if (!st && !create) return; // nothing below exists yet: nothing there to follow
    if (!st) {
      mkdirSync(at);
      st = lstatSync(at);
    }
    if (st.isSymbolicLink()) {
      let real: string;
      try {
        real = realpathSync(at);
      } catch {
        throw refusal(file, `${at} is a symbolic link that leads nowhere`);
      }
      if (!inside(realRoot, real))
        throw refusal(file, `${at} is a symbolic link that leads outside ${root} (to ${real})`);
      if (!statSync(real).isDirectory()) throw refusal(file, `${at} is not a folder`);
    } else if (!st.isDirectory()) throw refusal(file, `${at} is not a folder`);
  }
}

/**
 * Checks that each path can be written safely under `root` (see above); throws CmError
 * unsafe_output naming the first that cannot. Returns the paths that exist already. Writes nothing.
 */
export function checkOutputs(root: string, paths: readonly string[]): string[] {
  const realRoot = realRootOf(root, false);
  const existing: string[] = [];
  for (const p of paths) {
    if (!inside(root, p)) throw refusal(p, `it is not inside ${root}`);
    if (realRoot === undefined) continue; // no root yet: nothing under it either
    checkFolders(root, realRoot, p, false);
    const st = look(p);
    if (!st) continue;
    if (st.isSymbolicLink()) throw refusal(p, 'it is a symbolic link (the tool never writes through one)');
    if (!st.isFile()) throw refusal(p, 'it is not a regular file');
    if (st.nlink > 1) throw refusal(p, 'it is a hard link to another file');
    existing.push(p);
  }
  return existing;
}

/** Writes one file: created exclusively, or replaced when `overwrite`, never through a link. */
function writeOne(f: OutputFile, overwrite: boolean): void {
  const flags =
    constants.O_WRONLY | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (overwrite ? 0 : constants.O_EXCL);
  let fd: number;
  try {
    fd = openSync(f.path, flags, f.mode ?? 0o666);
  } catch (e) {
    if (errno(e) === 'ELOOP') throw refusal(f.path, 'it is a symbolic link (the tool never writes through one)');
    if (errno(e) === 'EEXIST')
      throw new CmError(`not overwriting ${f.path}`, 'file_exists', EXIT.error, { path: f.path });
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw refusal(f.path, 'it is not a regular file');
    if (st.nlink > 1) throw refusal(f.path, 'it is a hard link to another file');
    ftruncateSync(fd, 0);
    if (f.mode !== undefined) fchmodSync(fd, f.mode);
    const data = typeof f.data === 'string' ? Buffer.from(f.data) : f.data;
    for (let off = 0; off < data.length;) off += writeSync(fd, data, off, data.length - off);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `files` under `root`: every path is checked first (checkOutputs), then each is written
 * (its folders made as needed). Without `overwrite`, a file that exists is refused (file_exists)
 * before anything is written. Errors are CmErrors naming the file.
 */
export function writeOutputs(root: string, files: readonly OutputFile[], overwrite: boolean): void {
  const existing = checkOutputs(
    root,
    files.map((f) => f.path),
  );
  if (existing.length > 0 && !overwrite)
    throw new CmError(`not overwriting existing file(s): ${existing.join(', ')}`, 'file_exists', EXIT.error, {
      paths: existing,
    });
  for (const f of files) {
    try {
      const realRoot = realRootOf(root, true)!;
      checkFolders(root, realRoot, f.path, true);
      writeOne(f, overwrite);
    } catch (e) {
      if (e instanceof CmError) throw e;
      throw new CmError(`cannot write ${f.path}: ${(e as Error).message}`, 'file', EXIT.error, { path: f.path });
    }
  }
}

/** Writes one file at `path` (absolute): its root as outputRoot gives it, from `cwd`. */
export function writeOutput(
  cwd: string,
  path: string,
  data: string | Uint8Array,
  overwrite = true,
  mode?: number,
): void {
  const abs = resolve(cwd, path);
  writeOutputs(outputRoot(cwd, abs), [{ path: abs, data, ...(mode !== undefined ? { mode } : {}) }], overwrite);
}
