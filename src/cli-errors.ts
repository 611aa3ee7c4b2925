// The one place that turns any failure into text or a JSON envelope, and an exit code.
import { CmError, EXIT, formatProblem, ManifestError } from './errors.js';
import { ApplyError } from './apply/failure.js';
import type { CommandIo } from './commands/io.js';
import { visible } from './util/visible.js';
import { palette } from './util/color.js';

/** Reports an error; returns the exit code. Unknown errors keep their message, never a stack. */
export function reportError(err: unknown, io: CommandIo, json: boolean): number {
  const e =
    err instanceof CmError
      ? err
      : new CmError(err instanceof Error ? err.message : String(err), 'internal', EXIT.error);
  if (json) {
    io.stdout(
      `${JSON.stringify({ error: { code: e.code, message: e.message, exitCode: e.exitCode, ...e.meta } }, null, 2)}\n`,
    );
  }
  if (e instanceof ApplyError) {
    io.stderr(`${visible(e.report(), true)}\n`);
  } else if (e instanceof ManifestError) {
    for (const p of e.problems) io.stderr(`${formatProblem(p)}\n`);
    io.stderr(`${visible(e.message, true)}\n`);
  } else {
    io.stderr(`${palette(io.color?.stderr).red('error:')} ${visible(e.message, true)}\n`);
  }
  if (!(err instanceof CmError) && io.env.CITUS_MIGRATE_DEBUG && err instanceof Error) io.stderr(`${err.stack}\n`);
  return e.exitCode;
}
