// The live state with what earlier applies recorded in the tool's own schema: introspect's
// reader, given this folder's reader of citus_migrate.object_state.
import type { Queryable } from '../db/connect.js';
import { readLiveState as readWith } from '../introspect/read.js';
import type { LiveState } from '../model/live-state.js';
import { readObjectState } from './object-state.js';

/** Reads the live state of the cluster as a model (introspect/read.ts's readLiveState). */
export function readLiveState(
  db: Queryable,
  onSent?: () => void,
  known: { citus?: boolean } = {},
): Promise<LiveState & { roundTrips: number }> {
  return readWith(db, readObjectState, onSent, known);
}
