// A comment on a composite type's column names it as a relation's (`COMMENT ON COLUMN app.pair.a`):
// it goes with the type, as the catalog query reads it (catalog-type-comments.ts), and is made
// after it.
import { refId, relationRef, typeRef } from '../model/object-ref.js';
import type { SqlObject } from '../model/types.js';

/** The files' objects with each comment on a declared composite type's column given to that type. */
export function withTypeColumnComments(objects: Record<string, SqlObject>): void {
  for (const [id, o] of Object.entries(objects)) {
    if (o.kind !== 'comment' || !o.name.startsWith('on column ') || o.parent === undefined) continue;
    const table = refId(o.parent, 'relation');
    if (table === undefined || objects[`composite type ${table}`] === undefined) continue;
    const parent = typeRef(table);
    objects[id] = { ...o, parent, deps: o.deps.map((d) => (d === relationRef(table) ? parent : d)) };
  }
}
