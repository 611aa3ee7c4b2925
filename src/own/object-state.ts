// Reads and writes citus_migrate.object_state: for each object defined by SQL that an apply
// created, the hash of its declared definition and of the definition PostgreSQL printed back.
// A forged row would make a changed definition look unchanged, so a plan trusts the table only
// when no role but its owner and superusers may write it (own-schema.ts), and its rows are still
// what the tool last wrote: the tool keeps their sha256 in the table's comment, which only the
// owner can set, so rows written while another role could (and kept after its privileges were
// taken back) are noticed too.
import type { Queryable } from '../db/connect.js';
import type { LiveState } from '../model/live-state.js';
import { objectKey } from '../objects/key.js';
import { keyHash, type RecordedObject } from '../plan/same-object.js';
import type { PlanDocument } from '../plan/plan.js';
import { quoteLiteral } from '../sql/quote.js';
import { dictOf } from '../util/dict.js';
import { inOwnSchema, readLockedOwnTable, untrustedState, type OwnWait } from './own-schema.js';

// The rows in one canonical text (byte order), hashed; and the comment that keeps the hash.
const DIGEST_SQL = `SELECT pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(COALESCE(pg_catalog.string_agg(
    pg_catalog.concat_ws(' ', id, desired_hash, actual_hash), E'\\n' ORDER BY id COLLATE pg_catalog."C"), ''), 'UTF8')), 'hex') AS digest,
  pg_catalog.obj_description('citus_migrate.object_state'::pg_catalog.regclass, 'pg_class') AS note
  FROM ONLY citus_migrate.object_state`;
const NOTE = 'What citus-migrate recorded of the SQL definitions it created. sha256 of the rows it last wrote: ';
const DIGEST_IN_NOTE = /sha256 of the rows it last wrote: ([0-9a-f]{64})$/;

/**
 * What earlier applies recorded (empty before the first apply that created an object), or why it
 * is not trusted: another role may write it or owns it, or its rows changed since the tool wrote
 * them. (A table from before the tool kept the hash is trusted on the first count alone.)
 */
export async function readObjectState(
  db: Queryable,
): Promise<{ recorded: Record<string, RecordedObject> } | { untrusted: { reasons: string[]; revoke: string[] } }> {
  return inOwnSchema(db, async () => {
    const rows = await readLockedOwnTable<{ id: string; desired_hash: string; actual_hash: string }>(
      db,
      'object_state',
      'SELECT id, desired_hash, actual_hash FROM ONLY citus_migrate.object_state',
    );
    const untrusted = await untrustedState(db);
    const { digest, note } = (await db.query<{ digest: string; note: string | null }>(DIGEST_SQL)).rows[0]!;
    const kept = DIGEST_IN_NOTE.exec(note ?? '')?.[1];
    if (kept !== undefined && kept !== digest)
      untrusted.reasons.push(
        'its rows changed since citus-migrate last wrote them (the sha256 it keeps in the comment on citus_migrate.object_state, which only the owner can set, no longer matches)',
      );
    if (untrusted.reasons.length > 0) return { untrusted };
    return {
      recorded: dictOf(rows.map((r) => [r.id, { desired: r.desired_hash, actual: r.actual_hash }] as const)),
    };
  });
}

/**
 * Records what the plan's objects became, and the rows' new hash; returns the records merged with
 * `live.recorded`. Without trusted records (`live.recorded` absent: they were ignored) the table
 * is replaced by this apply's: a row nobody can vouch for is not kept.
 */
/** What recordObjectState records, and the records it returns (written or not: a rehearsal writes nothing). */
export function recordsAfter(
  plan: PlanDocument,
  live: LiveState,
): { replace: boolean; out: Record<string, RecordedObject>; ids: string[]; desired: string[]; actual: string[] } {
  const replace = live.recorded === undefined;
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
  return { replace, out, ids, desired, actual };
}

export async function recordObjectState(
  db: Queryable,
  plan: PlanDocument,
  live: LiveState,
  wait?: OwnWait,
): Promise<Record<string, RecordedObject>> {
  const { replace, out, ids, desired, actual } = recordsAfter(plan, live);
  if (ids.length > 0 || replace) {
    await inOwnSchema(
      db,
      async () => {
        // The coordinator's own bookkeeping: Citus propagates none of it (see ensureHistorySchema).
        await db.query('SET LOCAL citus.enable_ddl_propagation TO off');
        if (replace) await db.query('DELETE FROM ONLY citus_migrate.object_state');
        await db.query(
          `INSERT INTO citus_migrate.object_state (id, desired_hash, actual_hash)
      SELECT * FROM ROWS FROM (pg_catalog.unnest($1::pg_catalog.text[]), pg_catalog.unnest($2::pg_catalog.text[]), pg_catalog.unnest($3::pg_catalog.text[]))
      ON CONFLICT (id) DO UPDATE SET desired_hash = excluded.desired_hash, actual_hash = excluded.actual_hash, recorded_at = pg_catalog.now()`,
          [ids, desired, actual],
        );
        const { digest } = (await db.query<{ digest: string }>(DIGEST_SQL)).rows[0]!;
        await db.query(`COMMENT ON TABLE citus_migrate.object_state IS ${quoteLiteral(`${NOTE}${digest}`)}`);
      },
      { wait, what: 'recording what the SQL definitions became in citus_migrate.object_state' },
    );
  }
  return out;
}
