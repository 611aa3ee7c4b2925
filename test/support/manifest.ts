// Loads manifest text in memory with a fake project folder for routine files.
import { ManifestError, formatProblem, type Problem } from '../../src/errors.js';
import { loadManifestText, type LoadedManifest, type ManifestFs } from '../../src/manifest/load.js';

export function fakeFs(files: Record<string, string>): ManifestFs {
  const get = (p: string): string => {
    const rel = p.replace(/^\/proj\//, '');
    const text = files[rel];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
    return text;
  };
  return { readFile: get, size: (p) => Buffer.byteLength(get(p)) };
}

/** Loads text as /proj/m.yaml. */
export function load(text: string, files: Record<string, string> = {}): Promise<LoadedManifest> {
  return loadManifestText(text, 'm.yaml', '/proj', fakeFs(files));
}

/** The formatted problems (errors and warnings) of a manifest, or [] when it loads cleanly. */
export async function problems(text: string, files: Record<string, string> = {}): Promise<string[]> {
  try {
    const m = await load(text, files);
    return m.warnings.map((w: Problem) => formatProblem(w));
  } catch (e) {
    if (e instanceof ManifestError) return e.problems.map(formatProblem);
    throw e;
  }
}
