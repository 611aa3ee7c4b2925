// The workers' ACLs of what extensions made, of the languages and of pg_catalog's objects. Citus
// propagates no GRANT / REVOKE on them (docs/citus-facts.md): the plan runs its own on every worker
// too (plan/diff/grant-workers.ts), but one made on a worker by hand was not seen, and a routine
// delegated there runs under the worker's. On Citus one more round trip asks every worker for the
// ACLs that differ from what the extension's script or initdb left (run_command_on_workers); where
// a worker's differ from the coordinator's, the GRANT / REVOKE that make them the coordinator's are
// kept (workerGrantDrift), and the plan runs them on the workers. A worker that cannot be read is
// taken to hold them as they were left (its statements then bring it to the coordinator's).
import type { Queryable } from '../db/connect.js';
import type { CatalogDoc } from '../model/catalog-doc.js';
import type { ExtensionAclRow } from '../objects/privileges-catalog.js';
import { extensionTargetsOf } from '../objects/privileges-catalog.js';
import { extensionTargetKey, privilegesIdPrefix, workerDelta } from '../objects/extension-privileges.js';
import type { ExtensionTarget } from '../model/privilege-types.js';
import { TOOL_PATH_PINS, withPins } from './catalog-query.js';
import { extensionAclRows } from './catalog-extension-acls.js';

// Only the rows whose ACL is not as it was left: a handful, where the coordinator reads hundreds.
/** What each worker runs (under the search_path Citus's connections have: "$user", public). */
export const WORKER_ACLS_SQL = `SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_array(e.type, e.name, e.owner, e.col, e.now, e.init)), '[]') FROM (${extensionAclRows(true)}
  ) AS e(type, name, owner, col, now, init)`;
const WORKER_SQL = `SELECT nodename, nodeport, success, result FROM pg_catalog.run_command_on_workers($cm$${WORKER_ACLS_SQL}$cm$)`;

/** A worker's reading of `t`: the coordinator's target with the worker's ACLs where its rows give them, else as left. */
function onWorker(t: ExtensionTarget, rows: readonly ExtensionAclRow[]): ExtensionTarget {
  const own = rows.length > 0 ? extensionTargetsOf(rows)[extensionTargetKey(t)]! : undefined;
  const whole = rows.some((r) => r[3] === null);
  return {
    ...t,
    now: whole ? own!.now : t.init,
    ...(t.columns || own?.columns
      ? {
          columns: Object.fromEntries(
            [...new Set([...Object.keys(t.columns ?? {}), ...Object.keys(own?.columns ?? {})])].map((c) => [
              c,
              own?.columns?.[c] ?? { now: t.columns?.[c]?.init ?? [], init: t.columns?.[c]?.init ?? [] },
            ]),
          ),
        }
      : {}),
  };
}

/** `t` with its ACLs as they were left. */
const asLeft = (t: ExtensionTarget): ExtensionTarget => ({
  ...t,
  now: t.init,
  ...(t.columns
    ? { columns: Object.fromEntries(Object.entries(t.columns).map(([c, v]) => [c, { now: v.init, init: v.init }])) }
    : {}),
});

/** The document with the GRANT / REVOKE that bring each worker's ACLs to the coordinator's; 1 round trip on Citus. */
export async function withWorkerAcls(db: Queryable, doc: CatalogDoc): Promise<{ doc: CatalogDoc; roundTrips: number }> {
  if (!doc.server.citus || !doc.extensionAcls || !doc.nodes.some((n) => n.role === 'primary' && n.group !== 0))
    return { doc, roundTrips: 0 };
  const rows = await withPins<{ nodename: string; nodeport: number; success: boolean; result: string }>(
    db,
    WORKER_SQL,
    TOOL_PATH_PINS,
  );
  const targets = extensionTargetsOf(doc.extensionAcls);
  // Those the coordinator holds otherwise than as left, and those a worker does.
  const changed = new Set(
    doc.extensionAcls.filter((r) => r[4] !== 'init').map((r) => extensionTargetKey({ type: r[0], name: r[1] })),
  );
  const drift = new Map<string, { object: string; nodes: string[]; statements: string[] }>();
  for (const row of rows) {
    const node = `${row.nodename}:${row.nodeport}`;
    let theirs: ExtensionAclRow[];
    try {
      theirs = row.success ? (JSON.parse(row.result) as ExtensionAclRow[]) : [];
    } catch {
      theirs = [];
    }
    const byKey = new Map<string, ExtensionAclRow[]>();
    for (const r of theirs) {
      const k = extensionTargetKey({ type: r[0], name: r[1] });
      byKey.set(k, [...(byKey.get(k) ?? []), r]);
    }
    for (const key of new Set([...changed, ...byKey.keys()])) {
      // One the coordinator holds as it was left (so reads no row of: pg_catalog's now(), say) is the worker's as left.
      const t = targets[key] ?? asLeft(extensionTargetsOf(byKey.get(key)!)[key]!);
      // (Citus propagates a foreign data wrapper's.)
      if (t.type === 'FOREIGN DATA WRAPPER') continue;
      const statements = workerDelta(t, onWorker(t, byKey.get(key) ?? []));
      if (statements.length === 0) continue;
      const object = `${privilegesIdPrefix(t)}on the workers`;
      const id = `${object}\u0000${statements.join('\u0000')}`;
      const have = drift.get(id);
      if (have) have.nodes.push(node);
      else drift.set(id, { object, nodes: [node], statements });
    }
  }
  return drift.size > 0
    ? { doc: { ...doc, workerGrantDrift: [...drift.values()] }, roundTrips: 1 }
    : { doc, roundTrips: 1 };
}
