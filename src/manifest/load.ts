// Reads a manifest file (YAML or JSON), validates it against the v1 schema and the rules of
// manifest.md, and returns the desired model. Every problem is reported at once with its
// file:line:col and path.
import { withSecretDigests } from './secrets.js';
import type { Path } from './locate.js';
import { sha256Hex } from '../util/sha256.js';
import { dirname, resolve as resolvePath } from 'node:path';
import { FileError, ManifestError, type Problem } from '../errors.js';
import { loadParser } from '../sql/pg-parse.js';
import { formatPath } from './locate.js';
import { ProblemList } from './problems.js';
import { forZod, restoreProtoKeys } from './proto-keys.js';
import { FileRefusal, MAX_MANIFEST_BYTES } from './project-files.js';
import { nodeFs, projectIo, type ManifestFs } from './project-io.js';
import { resolveManifest, type ResolvedManifest } from './resolve.js';
import { closestKey } from './suggest.js';
import { readYaml, type YamlReading } from './yaml-read.js';
import { recordPhase, timed } from '../util/timings.js';
import { manifestSchema, type Manifest } from './schema.js';
import { withoutKeys, zodProblems } from './zod-problems.js';

export { MAX_MANIFEST_BYTES } from './project-files.js';
export type { ManifestFs } from './project-io.js';

export interface LoadedManifest extends ResolvedManifest {
  readonly file: string; // as given by the user
  readonly dir: string; // absolute project directory (the manifest's folder)
  readonly sha256: string;
  readonly manifest: Manifest;
  readonly warnings: readonly Problem[];
  /** The environment its user mappings' `${env:NAME}` were read from: apply sends their values from it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The text of each routine read from a file, by routine id: read once, for whoever needs it again. */
  readonly routineTexts: ReadonlyMap<string, string>;
  /** Where a path of the manifest is (`file:line:col`), read again only when asked. */
  locate(path: Path): Promise<string | undefined>;
}

/** Loads and validates a manifest file; throws ManifestError listing every problem. */
export async function loadManifest(
  file: string,
  fs: ManifestFs = nodeFs,
  cwd: string = process.cwd(),
): Promise<LoadedManifest> {
  const abs = resolvePath(cwd, file);
  const reading = performance.now();
  let text: string;
  try {
    const size = fs.size(abs);
    if (size > MAX_MANIFEST_BYTES) {
      throw new ManifestError([
        {
          severity: 'error',
          code: 'too_large',
          file,
          path: '',
          message: `is ${size} bytes; a manifest may be at most ${MAX_MANIFEST_BYTES} bytes`,
        },
      ]);
    }
    text = fs.readFile(abs);
  } catch (e) {
    if (e instanceof ManifestError) throw e;
    if (e instanceof FileRefusal)
      throw new ManifestError([
        { severity: 'error', code: e.code, file, path: '', message: e.message, ...(e.at ?? {}) },
      ]);
    const code = (e as NodeJS.ErrnoException).code;
    throw new FileError(
      code === 'ENOENT' ? `manifest ${file} does not exist` : `cannot read manifest ${file}: ${(e as Error).message}`,
      file,
    );
  }
  recordPhase('read manifest', reading);
  return loadManifestText(text, file, dirname(abs), fs);
}

/** Validates manifest text; `file` is used in messages, `dir` resolves routine files. */
export async function loadManifestText(
  text: string,
  file: string,
  dir: string,
  fs: ManifestFs = nodeFs,
): Promise<LoadedManifest> {
  await timed('load parser', loadParser);
  const parsing = performance.now();
  const reading = readYaml(text);
  // Problems are reported in file order, whatever order the checks found them in.
  const finish = async (list: ProblemList): Promise<Problem[]> => {
    const locator = list.items.length > 0 ? reading.locator : undefined;
    return list.items
      .map((p) => {
        const pos = locator?.locate(p.path, p.atKey);
        return {
          severity: p.severity,
          code: p.code,
          message: p.message,
          path: formatPath(p.path),
          file,
          ...(pos ? { line: pos.line, col: pos.col } : {}),
        };
      })
      .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0));
  };
  const problems = new ProblemList();
  if (reading.syntax.length > 0)
    throw new ManifestError(reading.syntax.map((p) => ({ severity: 'error', code: 'syntax', path: '', file, ...p })));
  let raw: unknown;
  try {
    raw = reading.value();
  } catch (e) {
    // e.g. an alias without its anchor, an alias bomb past maxAliasCount, or nesting too deep
    const deep = e instanceof RangeError;
    problems.error(
      [],
      'syntax',
      deep ? 'mappings or lists nest too deeply to be read' : (e as Error).message.split('\n')[0]!,
    );
    throw new ManifestError(await finish(problems));
  }
  if (raw === null || raw === undefined) {
    problems.error([], 'empty', 'the manifest is empty; expected at least "version: 1"');
    throw new ManifestError(await finish(problems));
  }
  recordPhase('parse manifest', parsing);
  const validating = performance.now();
  // zod would drop a key named `__proto__` (proto-keys.ts): it reads it under a stand-in.
  const hidden = forZod(text, raw, problems);
  if (problems.hasErrors) throw new ManifestError(await finish(problems));
  raw = hidden.raw;
  // Without zod's compiled checkers (new Function per object shape): a manifest is validated
  // once per run, and zod's own walk is faster the first time at every size (9.5 -> 5.4 ms on
  // Chinook's, 48 -> 39 ms on perf:plan's 5,000 entries).
  let parsed = manifestSchema.safeParse(raw, { jitless: true });
  if (!parsed.success) {
    zodProblems(parsed.error, raw, problems);
    // Extra keys alone leave the rest exact: the rules run on it too, so every problem is reported
    // in one pass rather than the rules' after the keys are gone. Not after a misspelt key (one
    // with a suggestion): without it the rest means something else (distribute_by: no
    // distribution), and the rules would report what the typo causes.
    const extraOnly = parsed.error.issues.every(
      (i) =>
        i.code === 'unrecognized_keys' &&
        i.keys.every(
          (k) =>
            !closestKey(
              manifestSchema,
              i.path.filter((x): x is string | number => typeof x !== 'symbol'),
              k,
            ),
        ),
    );
    parsed = extraOnly ? manifestSchema.safeParse(withoutKeys(raw, parsed.error.issues), { jitless: true }) : parsed;
    if (!parsed.success) throw new ManifestError(await finish(problems));
  }
  // The manifest with its `__proto__` keys back, every mapping without a prototype (util/dict.ts).
  const manifest = restoreProtoKeys(parsed.data, hidden.hidden);
  recordPhase('validate manifest', validating);
  const resolving = performance.now();
  const io = projectIo(dir, fs, problems);
  const resolved = resolveManifest(manifest, io, problems);
  const all = await finish(problems);
  if (problems.hasErrors) throw new ManifestError(all);
  const files = new Map<string, { key: string; file: string; text: string }>();
  const routineTexts = new Map<string, string>();
  for (const [id, info] of Object.entries(resolved.routineInfo)) {
    const f = manifest.routines[info.key]?.file;
    if (!f) continue;
    const text = io.readChecked(resolvePath(dir, f)); // (read by the resolve: not read again)
    routineTexts.set(id, text);
    if (resolved.desired.routines[id]?.distribution?.argIndex !== undefined)
      files.set(id, { key: info.key, file: f, text });
  }
  recordPhase('resolve manifest', resolving);
  // Only manifests with delegated routines in files load the locality analysis.
  const locality =
    files.size > 0
      ? await timed('locality', async () =>
          (await import('../locality/warnings.js')).localityWarnings(
            resolved.desired,
            files,
            file,
            manifest.defaults?.schema ?? 'public',
          ),
        )
      : [];
  let again: YamlReading | undefined;
  const secrets = withSecretDigests(resolved.desired, fs.env ?? {});
  return {
    ...resolved,
    desired: secrets.desired,
    env: fs.env ?? {},
    file,
    dir,
    sha256: sha256Hex(text),
    manifest,
    warnings: [...all.filter((p) => p.severity === 'warning'), ...secrets.warnings, ...locality],
    routineTexts,
    // (read again when asked: the parsed document is not kept for the manifest's lifetime)
    locate: async (path) => {
      const pos = (again ??= readYaml(text)).locator.locate(path);
      return pos ? `${file}:${pos.line}:${pos.col}` : undefined;
    },
  };
}
