// The one place that reads the files of a project (the manifest, `sql:` files and folders,
// routine files). A file is read only when its real path (symbolic links resolved) is inside the
// project's real folder, it is a regular file (never a FIFO, device or socket: /dev/zero would
// fill memory, a FIFO would hang), it is at most a size limit, and it is UTF-8 (a byte that is
// not is reported, never replaced by U+FFFD). A leading byte order mark is dropped. A refused
// file's content is never read, so it cannot appear in a message.
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { byteLocator } from '../objects/statement-parts.js';

/** Largest manifest read; anything bigger is refused before parsing. */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/** Largest `sql:` or routine file read. */
export const MAX_PROJECT_FILE_BYTES = 10 * 1024 * 1024;

/** A file the tool will not read, with a stable code and a message that names no content. */
export class FileRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly at?: { line: number; col: number },
    /** The entry refused inside a listed folder, relative to it. */
    readonly entry?: string,
  ) {
    super(message);
  }
}

/** The real path of `abs`, refused when it is outside the real project folder `root`. */
function realInside(root: string, abs: string, entry?: string): string {
  // realpathSync.native: one system call each, where the JavaScript one lstats every component.
  const real = realpathSync.native(abs); // ENOENT for a missing file or a broken link: the caller says "does not exist"
  const realRoot = realpathSync.native(root);
  const rel = relative(realRoot, real);
  if (rel === '..' || rel.startsWith(`..${sep}`) || rel === real)
    throw new FileRefusal(
      'file_outside_project',
      'is outside the project directory (through a symbolic link)',
      undefined,
      entry,
    );
  return real;
}

/** The offset of the first byte of `bytes` that is not UTF-8, or -1. */
function firstInvalidByte(bytes: Buffer): number {
  // Up to the first invalid sequence, decoding with replacement and re-encoding keeps every byte,
  // so the first U+FFFD that the file does not spell EF BF BD is the first invalid byte.
  const text = bytes.toString('utf8');
  let from = 0;
  let offset = 0;
  for (let i = text.indexOf('\ufffd'); i >= 0; i = text.indexOf('\ufffd', i + 1)) {
    offset += Buffer.byteLength(text.slice(from, i));
    from = i;
    if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd) return offset;
  }
  return -1;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

const notAFile = () => new FileRefusal('not_a_file', 'is not a regular file (but a folder, FIFO, device…)');

/**
 * Reads a regular file of at most `limit` bytes as strict UTF-8 (a leading BOM dropped); throws
 * FileRefusal (its message follows the file's name), or the fs error (ENOENT…).
 */
export function readTextFile(abs: string, limit: number): string {
  if (!statSync(abs).isFile()) throw notAFile();
  // O_NONBLOCK: should it become a FIFO between stat and open, open does not wait for a writer;
  // fstat then refuses it.
  const fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  let bytes: Buffer;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notAFile();
    const tooLarge = (size: number | string) =>
      new FileRefusal('too_large', `is ${size} bytes; a file may be at most ${limit} bytes`);
    if (st.size > limit) throw tooLarge(st.size);
    // Read at most limit + 1 bytes, whatever the size said: a file that grows is still bounded.
    // Only the bytes read are kept (subarray below): no need to zero the buffer first.
    const buf = Buffer.allocUnsafe(Math.min(limit + 1, Math.max(st.size + 1, 64 * 1024)));
    let n = 0;
    for (let got = -1; got !== 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
    if (n > limit) throw tooLarge(`more than ${limit}`);
    bytes = buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
  try {
    return STRICT_UTF8.decode(bytes); // drops a leading BOM
  } catch {
    const at = firstInvalidByte(bytes);
    const [line, col] = byteLocator(bytes)(at).split(':').map(Number) as [number, number];
    throw new FileRefusal(
      'not_utf8',
      `is not UTF-8: byte 0x${bytes[at]!.toString(16).toUpperCase().padStart(2, '0')} at line ${line}, column ${col} (offset ${at}) is not part of a UTF-8 character`,
      { line, col },
    );
  }
}

/** Reads a `sql:` or routine file of the project folder `root` (see the top of this file). */
export function readProjectFile(root: string, abs: string): string {
  return readTextFile(realInside(root, abs), MAX_PROJECT_FILE_BYTES);
}

/**
 * The .sql files under a folder of the project (paths relative to it, '/'-separated, sorted), or
 * undefined when `abs` is not a folder. Folder links are followed only inside the project, and a
 * folder already walked (a link loop, or two links to one folder) is walked once.
 */
export function listProjectSql(root: string, abs: string): string[] | undefined {
  let real: string;
  try {
    real = realInside(root, abs);
    if (!statSync(real).isDirectory()) return undefined;
  } catch (e) {
    if (e instanceof FileRefusal) throw e;
    return undefined; // missing: reading it as a file says so
  }
  const seen = new Set<string>([real]);
  const out: string[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = `${prefix}${entry.name}`;
      if (entry.isDirectory() || entry.isSymbolicLink()) {
        let target: string;
        try {
          target = realInside(root, join(dir, entry.name), path);
        } catch (e) {
          if (e instanceof FileRefusal) throw e;
          if (entry.name.endsWith('.sql')) out.push(path); // a broken link: reading it says it does not exist
          continue;
        }
        if (statSync(target).isDirectory()) {
          if (!seen.has(target)) {
            seen.add(target);
            walk(target, `${path}/`);
          }
          continue;
        }
      }
      if (entry.name.endsWith('.sql')) out.push(path);
    }
  };
  walk(real, '');
  return out.sort();
}
