// One error hierarchy: a stable snake_case `code` (part of the JSON contract), an exit code and
// structured `meta`. The CLI turns any of these into text or a JSON envelope in one place.
import { plural } from './util/plural.js';
import { visible } from './util/visible.js';

/** Exit codes, documented in docs/guide/exit-codes.md. */
export const EXIT = {
  ok: 0,
  error: 1,
  changes: 2, // plan --detailed-exitcode: changes pending (as Terraform)
  invalidManifest: 3,
  refusedHazard: 4,
  stalePlan: 5,
  lockWait: 6,
  clusterNotReady: 7, // apply: a node inactive, metadata not synced or a background job running
  committedUnverified: 8, // apply: the transaction committed, but verifying or recording it failed
  usage: 64,
  interrupted: 130, // Ctrl-C (SIGINT), as shells report it
  terminated: 143, // SIGTERM, as shells report it
} as const;

/** A problem found in user input, located as precisely as we can. */
export interface Problem {
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly message: string;
  readonly path: string; // e.g. tables.district.foreign_keys[0].references
  readonly file?: string;
  readonly line?: number; // 1-based
  readonly col?: number; // 1-based
}

/** Base class of every error the tool reports on purpose. */
export class CmError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly exitCode: number = EXIT.error,
    readonly meta: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The manifest (or a file it names) is invalid; carries every problem found. */
export class ManifestError extends CmError {
  constructor(
    readonly problems: readonly Problem[],
    exitCode: number = EXIT.invalidManifest,
  ) {
    const n = problems.filter((p) => p.severity === 'error').length;
    super(`manifest is invalid: ${plural(n, 'problem')}`, 'invalid_manifest', exitCode, { problems });
  }
}

/** Bad command-line usage: unknown or conflicting flags, missing arguments. */
export class UsageError extends CmError {
  constructor(message: string) {
    super(message, 'usage', EXIT.usage);
  }
}

/** A library function was given options it does not take (each problem: the option's path and what is wrong). */
export class OptionsError extends CmError {
  constructor(
    fn: string,
    readonly problems: readonly { readonly path: string; readonly message: string }[],
  ) {
    super(`${fn}(): ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, 'bad_options', EXIT.usage, {
      function: fn,
      problems,
    });
  }
}

/** A file could not be read or written. */
export class FileError extends CmError {
  constructor(message: string, path: string) {
    super(message, 'file', EXIT.error, { path });
  }
}

/** bench stopped before its timed run: a workload's call failed, or is not delegated under --require-delegation. */
export class BenchCheckError extends CmError {
  constructor(message: string, code: 'bench_call_failed' | 'bench_not_delegated', workloads: readonly string[]) {
    super(message, code, EXIT.error, { workloads });
  }
}

/** A bench parameter bound could not be read from the database (missing or empty table, not an integer). */
export class BenchDataError extends CmError {
  constructor(message: string, references: readonly string[]) {
    super(message, 'bench_data_bound', EXIT.error, { references });
  }
}

/** Formats a problem as `file:line:col: path: message`. */
export function formatProblem(p: Problem): string {
  const where = p.file ? `${p.file}${p.line ? `:${p.line}:${p.col ?? 1}` : ''}` : '';
  const head = [where, p.path].filter(Boolean).join(': ');
  return visible(`${p.severity}: ${head ? `${head}: ` : ''}${p.message}`, true);
}

/** A throwaway cluster (`cluster up|down|status`, local or on a container engine) cannot be started, found or removed safely. */
export class ClusterError extends CmError {
  constructor(
    message: string,
    code:
      | 'cluster_dir_not_empty'
      | 'cluster_engine_failed'
      | 'cluster_engine_unavailable'
      | 'cluster_file_untrusted'
      | 'cluster_port_in_use'
      | 'cluster_running_differs'
      | 'cluster_stale'
      | 'cluster_unavailable',
    meta: Readonly<Record<string, unknown>> = {},
  ) {
    super(message, code, EXIT.error, meta);
  }
}
