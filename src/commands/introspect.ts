// `citus-migrate introspect`: writes a v1 manifest of what the cluster has.
import { connectionTarget, withClient } from '../db/connect.js';
import { readLiveState } from '../introspect/read.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { liveToProject } from '../introspect/to-manifest.js';
import { plural } from '../util/plural.js';
import { emit, type CommandIo } from './io.js';

/** CLI entry. */
export async function introspectCommand(
  opts: { database?: string; out?: string; schema?: string },
  io: CommandIo,
): Promise<number> {
  const live = await withClient(connectionTarget(opts.database, io.env), (c) => readLiveState(c));
  const project = liveToProject(live, {
    ...(opts.schema ? { defaultSchema: opts.schema } : {}),
    files: opts.out !== undefined,
  });
  // The files go beside the manifest, each written once; an existing one is replaced only by what introspect writes.
  if (opts.out !== undefined) {
    const dir = dirname(resolve(opts.out));
    for (const [rel, text] of Object.entries(project.files)) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
  }
  emit(project.manifest, opts.out, io);
  if (project.objectsLeftOut > 0) {
    io.stderr(
      `introspect: ${plural(project.objectsLeftOut, 'object')} defined by SQL (views, types, triggers, comments…) and the routine bodies are written only with --out FILE (beside it, under sql/ and routines/); plans name them as unmanaged meanwhile\n`,
    );
  }
  return 0;
}
