// The sql/ files introspect writes: each object defined by SQL in the file of its kind, as the
// catalog printed it (with search_path = public; a user mapping's or subscription's secrets as `${env:NAME}`), except what the manifest's tables declare and
// what goes with a table that is left out.
import type { LiveState } from '../model/live-state.js';
import { NOT_MANAGED_TABLE_KINDS } from '../model/not-managed.js';
import { dictOf } from '../util/dict.js';
import { OBJECT_SPEC } from '../model/object-spec.js';
import { indexRef, relationRef } from '../model/object-ref.js';
import { withPlaceholders } from '../objects/user-mapping.js';
import { subscriptionWithPlaceholder } from '../objects/subscription.js';

/** The sql/*.sql files for the live state's objects, added to `files` (routine files already there). */
export function sqlObjectFiles(live: LiveState, files: Readonly<Record<string, string>>): Record<string, string> {
  const m = live.model;
  const out = dictOf<string>(files);
  // Indexes the manifest's tables declare (plain columns) are written there, not here.
  const inYaml = new Set(
    Object.values(m.tables).flatMap((t) =>
      t.indexes.map((i) => indexRef({ schema: t.qname.schema, name: i.name ?? '' })),
    ),
  );
  // A not-managed table's indexes, triggers and the rest go with it: named, never created alone.
  const tablesLeftOut = new Set(
    (live.doc.notManaged ?? []).filter((x) => NOT_MANAGED_TABLE_KINDS.has(x.kind)).map((x) => relationRef(x.name)),
  );
  // Its partitions' too.
  for (const t of live.doc.tables)
    if (tablesLeftOut.has(relationRef({ schema: t.schema, name: t.name })))
      for (const p of t.partitions ?? [])
        tablesLeftOut.add(relationRef({ schema: p.schema ?? t.schema, name: p.name }));
  const secrets = new Map<string, string[]>(); // file → the variables its placeholders name
  for (const o of Object.values(m.objects)) {
    if (inYaml.has(o.id) || (o.parent !== undefined && tablesLeftOut.has(o.parent))) continue;
    const f = `sql/${OBJECT_SPEC[o.kind].sqlFile}.sql`;
    // Secrets as placeholders (a user mapping's options, a subscription's connection string): the
    // catalog gave digests, never values.
    const held =
      o.kind === 'user mapping'
        ? withPlaceholders(o)
        : o.kind === 'subscription'
          ? subscriptionWithPlaceholder(o)
          : undefined;
    const create = held ? [held.text] : o.create;
    if (held) secrets.set(f, [...(secrets.get(f) ?? []), ...held.names]);
    out[f] = `${out[f] ?? 'SET search_path TO public;\n'}${create.map((x) => `${x.trimEnd()};\n`).join('')}`;
  }
  for (const [f, names] of secrets)
    out[f] = `-- Secrets the cluster does not give: set ${names.join(', ')} where plan and apply run.\n${out[f]}`;
  return out;
}
