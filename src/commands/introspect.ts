// `citus-migrate introspect`: writes a v1 manifest of what the cluster has.
import { connectionTarget, withClient } from '../db/connect.js';
import { readLiveState } from '../own/live-state.js';
import { dirname, join, resolve } from 'node:path';
import { CmError, EXIT } from '../errors.js';
import { liveToProject } from '../introspect/to-manifest.js';
import { plural } from '../util/plural.js';
import { checkOutputs, outputRoot, writeOutputs } from '../files/safe-write.js';
import { visible } from '../util/visible.js';
import { notManagedLines } from '../model/not-managed.js';
import { emit, type CommandIo } from './io.js';

/**
 * Writes the manifest to `out` and its files beside it. Refuses, writing nothing, when any of
 * them exists, unless `force` (then says which it replaces), as `init` does.
 */
export function writeProject(
  out: string,
  project: { manifest: string; files: Readonly<Record<string, string>> },
  force: boolean,
  io: CommandIo,
): void {
  const abs = resolve(io.cwd, out);
  const dir = dirname(abs);
  const outputs = [
    { path: abs, data: project.manifest, shown: out },
    ...Object.entries(project.files).map(([rel, text]) => ({
      path: join(dir, rel),
      data: text,
      shown: join(dirname(out), rel),
    })),
  ];
  // Every path is checked (no link leading out of the folder, none a link itself) before any is written.
  const root = outputRoot(io.cwd, abs);
  const found = new Set(
    checkOutputs(
      root,
      outputs.map((o) => o.path),
    ),
  );
  const existing = outputs.filter((o) => found.has(o.path)).map((o) => o.shown);
  if (existing.length > 0 && !force)
    throw new CmError(
      `not overwriting existing file(s): ${existing.join(', ')} (use --force)`,
      'file_exists',
      EXIT.error,
    );
  if (existing.length > 0) io.stderr(`overwriting ${existing.join(', ')} (--force)\n`);
  writeOutputs(root, [...outputs.slice(1), outputs[0]!], force);
  io.stderr(`wrote ${out}\n`);
}

/** CLI entry. */
export async function introspectCommand(
  opts: { database?: string; out?: string; schema?: string; force?: boolean; strict?: boolean },
  io: CommandIo,
): Promise<number> {
  const toFile = opts.out !== undefined && opts.out !== '-';
  const live = await withClient(connectionTarget(opts.database, io.env), (c) => readLiveState(c));
  const project = liveToProject(live, {
    ...(opts.schema ? { defaultSchema: opts.schema } : {}),
    files: toFile,
  });
  if (toFile) writeProject(opts.out!, project, opts.force ?? false, io);
  else emit(project.manifest, undefined, io);
  if (project.objectsLeftOut > 0) {
    io.stderr(
      `introspect: ${plural(project.objectsLeftOut, 'object')} defined by SQL (views, types, triggers, comments…) and the routine bodies are written only with --out FILE (beside it, under sql/ and routines/); plans name them as unmanaged meanwhile\n`,
    );
  }
  if (project.unfinishedFills.length > 0)
    io.stderr(
      `introspect: left out the marker of ${plural(project.unfinishedFills.length, 'column')} an interrupted apply was still filling (the next apply of a manifest that declares the column finishes it; one that does not drops the marker): ${project.unfinishedFills.join(', ')}\n`,
    );
  if (project.unfinishedRetypes.length > 0)
    io.stderr(
      `introspect: left out the shadow column, trigger and marker of ${plural(project.unfinishedRetypes.length, 'column')} an interrupted apply was changing online; the manifest has the type the column still has (the next apply of a manifest that declares the new type goes on with it; one that does not drops them): ${project.unfinishedRetypes.join(', ')}\n`,
    );
  // Never silent: what the manifest cannot carry is said here and listed in the manifest.
  const notManaged = live.doc.notManaged ?? [];
  if (notManaged.length > 0)
    io.stderr(
      `introspect: left out ${plural(notManaged.length, 'object')} of kinds citus-migrate does not manage (listed at the top of the manifest; plans name them as not managed):\n${notManagedLines(
        notManaged,
      )
        .map((l) => `  ${visible(l)}`)
        .join('\n')}\n`,
    );
  const leftOut = notManaged.length + project.objectsLeftOut;
  if (opts.strict && leftOut > 0) {
    io.stderr(`introspect --strict: ${plural(leftOut, 'object')} left out; exit 1\n`);
    return EXIT.error;
  }
  return 0;
}
