// `citus-migrate introspect`: writes a v1 manifest of what the cluster has.
import { connectionTarget, withClient } from '../db/connect.js';
import { readLiveState } from '../introspect/read.js';
import { liveToManifest } from '../introspect/to-manifest.js';
import type { CommandIo } from './io.js';
import { emit } from './plan.js';

/** CLI entry. */
export async function introspectCommand(opts: { database?: string; out?: string; schema?: string }, io: CommandIo): Promise<number> {
  const live = await withClient(connectionTarget(opts.database, io.env), (c) => readLiveState(c));
  emit(liveToManifest(live, { ...(opts.schema ? { defaultSchema: opts.schema } : {}) }), opts.out, io);
  return 0;
}
