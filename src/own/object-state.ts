// Reads and writes citus_migrate.object_state: for each object defined by SQL that an apply
// created, the hash of its declared definition and of the definition PostgreSQL printed back.
import type { Queryable } from '../db/connect.js';
import type { LiveState } from '../model/live-state.js';
import { objectKey } from '../objects/key.js';
import { keyHash, type RecordedObject } from '../plan/diff-objects.js';
import type { PlanDocument } from '../plan/plan.js';
import { inOwnSchema, readOwnTable } from './own-schema.js';
import { dictOf } from '../util/dict.js';

/** What earlier applies recorded (empty before the first apply that created an object). */
export async function readObjectState(db: Queryable): Promise<Record<string, RecordedObject>> {
  const rows = await readOwnTable<{ id: string; desired_hash: string; actual_hash: string }>(
    db,
    'object_state',
    'SELECT id, desired_hash, actual_hash FROM ONLY citus_migrate.object_state',
  );
  return dictOf(rows.map((r) => [r.id, { desired: r.desired_hash, actual: r.actual_hash }] as const));
}

/** Records what the plan's objects became; returns the records merged with `live.recorded`. */
export async function recordObjectState(
  db: Queryable,
  plan: PlanDocument,
  live: LiveState,
): Promise<Record<string, RecordedObject>> {
  const out = dictOf<RecordedObject>(live.recorded ?? {});
  const ids: string[] = [];
  const desired: string[] = [];
  const actual: string[] = [];
  for (const [id, hash] of Object.entries(plan.recordObjects ?? {})) {
    const a = live.model.objects[id];
    if (!a) continue;
    ids.push(id);
    desired.push(hash);
    actual.push(keyHash(objectKey(a.create)));
    out[id] = { desired: hash, actual: actual[actual.length - 1]! };
  }
  if (ids.length > 0) {
    await inOwnSchema(db, () =>
      db.query(
        `INSERT INTO citus_migrate.object_state (id, desired_hash, actual_hash)
      SELECT * FROM ROWS FROM (pg_catalog.unnest($1::pg_catalog.text[]), pg_catalog.unnest($2::pg_catalog.text[]), pg_catalog.unnest($3::pg_catalog.text[]))
      ON CONFLICT (id) DO UPDATE SET desired_hash = excluded.desired_hash, actual_hash = excluded.actual_hash, recorded_at = pg_catalog.now()`,
        [ids, desired, actual],
      ),
    );
  }
  return out;
}
