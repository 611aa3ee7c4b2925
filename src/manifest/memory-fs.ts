// A project held in memory (a manifest and its files, as introspect makes them) for the
// manifest reader: `plan --prove` loads its copy of the database this way, writing no file.
import { relative } from 'node:path';
import type { ManifestFs } from './project-io.js';

/** The files of a project at the folder `dir`, by path relative to it ("sql/views.sql"). */
export function memoryFs(dir: string, files: Readonly<Record<string, string>>): ManifestFs {
  const read = (abs: string): string => {
    const text = files[relative(dir, abs)];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${abs}`), { code: 'ENOENT' });
    return text;
  };
  return {
    readFile: read,
    size: (abs) => Buffer.byteLength(read(abs)),
    listSql(abs) {
      const folder = relative(dir, abs);
      if (folder in files) return undefined;
      const prefix = folder === '' ? '' : `${folder}/`;
      return Object.keys(files)
        .filter((f) => f.startsWith(prefix) && f.endsWith('.sql'))
        .map((f) => f.slice(prefix.length))
        .sort();
    },
  };
}
