// `citus-migrate validate`: checks a manifest without touching any database.
import { EXIT, formatProblem, ManifestError } from '../errors.js';
import { nodeFsWith } from '../manifest/project-io.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';
import type { CommandIo } from './io.js';
import { findManifest } from './manifest-file.js';
import { plural } from '../util/plural.js';
import { palette } from '../util/color.js';
import { visible } from '../util/visible.js';

/** Validates the manifest; returns it, or throws ManifestError with every problem. */
export async function validate(opts: { file?: string }, io: CommandIo): Promise<LoadedManifest> {
  const file = findManifest(opts.file, io.cwd);
  return loadManifest(file, nodeFsWith(io.env), io.cwd);
}

/** CLI entry: prints warnings and a verdict, returns the exit code. */
export async function validateCommand(
  opts: { file?: string; format?: 'text' | 'json' },
  io: CommandIo,
): Promise<number> {
  let m: LoadedManifest;
  try {
    m = await validate(opts, io);
  } catch (e) {
    // validate's verdict is its whole job: an invalid manifest exits 1 (other commands use 3).
    if (e instanceof ManifestError) throw new ManifestError(e.problems, EXIT.error);
    throw e;
  }
  if (opts.format === 'json') {
    io.stdout(`${JSON.stringify({ valid: true, file: m.file, warnings: m.warnings }, null, 2)}\n`);
  } else {
    const err = palette(io.color?.stderr);
    for (const w of m.warnings) io.stderr(`${err.yellow(formatProblem({ ...w, file: w.file ?? m.file }))}\n`);
    const counts = [
      plural(Object.keys(m.desired.tables).length, 'table'),
      plural(Object.keys(m.desired.routines).length, 'routine'),
      plural(Object.values(m.desired.sequences).filter((s) => !s.implicit).length, 'sequence'),
      ...(m.warnings.length ? [plural(m.warnings.length, 'warning')] : []),
    ];
    io.stdout(`${palette(io.color?.stdout).green(`${visible(m.file)} is valid`)} (${counts.join(', ')})\n`);
  }
  return EXIT.ok;
}
