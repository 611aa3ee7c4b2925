// What a table's inherited columns have of their own (a default, a NOT NULL, a statistics target,
// storage, attribute options) beside what their first parent gives them: the manifest's
// `inherited_columns`.
import { idOf, type Table } from '../model/types.js';
import type { CatalogDoc } from '../model/catalog-doc.js';
import { sameExpression } from '../sql/normalize.js';
import { inheritedSerialDefault } from '../model/serial-sequence.js';

/** `inherited_columns` of a table that inherits, or undefined when its columns are as their parents'. */
export function inheritedColumnsEntry(
  t: Table,
  tables: Readonly<Record<string, Table>>,
): Record<string, Record<string, unknown>> | undefined {
  const pk = new Set(t.primaryKey?.columns ?? []);
  const out: Record<string, Record<string, unknown>> = {};
  for (const c of t.columns ?? []) {
    if (!c.inherited) continue;
    const parent = (t.inherits ?? []).map((p) => tables[p]).find((p) => p?.columns?.some((x) => x.name === c.name));
    const from = parent?.columns?.find((x) => x.name === c.name);
    if (!parent || !from) continue;
    // A serial parent's default is its sequence's nextval (which the model leaves out).
    const given = from.type.serial ? inheritedSerialDefault(parent.qname, c.name) : from.default;
    const entry: Record<string, unknown> = {};
    if (!sameExpression(c.default, given, c.type)) entry.default = c.default ?? null;
    if (c.notNull && !from.notNull && !pk.has(c.name)) entry.not_null = true;
    // Its own statistics target, storage and options (ALTER TABLE ONLY child …).
    if (c.statistics !== undefined) entry.statistics = c.statistics;
    if (c.storage !== from.storage) entry.storage = c.storage ?? from.typeStorage;
    if (c.options) entry.options = Object.fromEntries(Object.entries(c.options).map(([k, v]) => [k, Number(v)]));
    if (Object.keys(entry).length > 0) out[c.name] = entry;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

type DocTable = CatalogDoc['tables'][number];

/**
 * For a table that inherits: the default a column has from its first parent's serial column, in
 * the manifest's spelling (inheritedSerialDefault), when the catalog prints the same as the parent's.
 */
export function inheritedSerials(
  doc: CatalogDoc,
  serialOf: ReadonlyMap<string, unknown>,
): (t: DocTable, c: DocTable['columns'][number], dflt: string | undefined) => string | undefined {
  // Only the parents' columns (most databases have none: nothing is built then; this runs on every read).
  const parents = new Set(doc.tables.flatMap((t) => (t.inherits ?? []).map((x) => idOf(x))));
  if (parents.size === 0) return () => undefined;
  const rawDefault = new Map<string, string | null>();
  for (const t of doc.tables) {
    const id = idOf(t);
    if (parents.has(id)) for (const c of t.columns) rawDefault.set(`${id}/${c.name}`, c.default);
  }
  return (t, c, dflt) => {
    const p = (t.inherits ?? []).find((x) => rawDefault.has(`${idOf(x)}/${c.name}`));
    const key = p ? `${idOf(p)}/${c.name}` : undefined;
    return key !== undefined && serialOf.has(key) && dflt !== undefined && rawDefault.get(key) === dflt
      ? inheritedSerialDefault(p!, c.name)
      : undefined;
  };
}
