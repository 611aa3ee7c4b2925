// CREATE OPERATOR FAMILY, ALTER OPERATOR FAMILY … ADD and CREATE OPERATOR CLASS in sql: files,
// named as DROP names them and the catalog reads them (catalog-opclasses.ts): `public.my_ops
// USING hash`. A family's ADD is part of the family it names. A class names its family (FAMILY f),
// as pg_dump and introspect write it: without one PostgreSQL makes a family of the class's name
// the file would not declare. Each needs the functions, types and family it names.
import { strings, type Node } from '../sql/pg-parse.js';
import { quoteIdent } from '../sql/quote.js';
import { routineRef, typeRef } from '../model/object-ref.js';
import type { Classified } from './alter-table.js';
import { listName } from './statement-parts.js';

/** `schema.name USING method`. */
const usingName = (names: Node[], method: string, defaultSchema: string): string =>
  `${listName(strings(names), defaultSchema)} USING ${quoteIdent(method)}`;

/** The routines and user types the items of a class or an ADD name. */
function itemDeps(items: readonly Node[] | undefined, defaultSchema: string): string[] {
  const deps = new Set<string>();
  const userType = (t: Node | undefined): void => {
    const n = strings(t?.names);
    if (n.length > 1 && n[0] !== 'pg_catalog') deps.add(typeRef(listName(n, defaultSchema)));
  };
  for (const it of items ?? []) {
    const i = it.CreateOpClassItem;
    if (!i) continue;
    if (i.itemtype === 2 && i.name?.objname) {
      const n = strings(i.name.objname);
      if (n[0] !== 'pg_catalog') deps.add(routineRef(listName(n, defaultSchema)));
    }
    for (const a of i.name?.objargs ?? []) userType(a.TypeName);
    for (const a of i.class_args ?? []) userType(a.TypeName);
    if (i.storedtype) userType(i.storedtype);
  }
  return [...deps];
}

/** The object a CreateOpFamilyStmt, AlterOpFamilyStmt or CreateOpClassStmt declares, or why it is refused. */
export function opclassObject(
  tag: 'CreateOpFamilyStmt' | 'AlterOpFamilyStmt' | 'CreateOpClassStmt',
  s: Node,
  defaultSchema: string,
): Classified | string {
  if (tag === 'CreateOpFamilyStmt')
    return { kind: 'operator family', name: usingName(s.opfamilyname, s.amname, defaultSchema), deps: [] };
  if (tag === 'AlterOpFamilyStmt') {
    if (s.isDrop) return 'ALTER OPERATOR FAMILY … DROP is not read: write the family with the members it keeps';
    return {
      kind: 'operator family',
      name: usingName(s.opfamilyname, s.amname, defaultSchema),
      amends: true,
      deps: itemDeps(s.items, defaultSchema),
    };
  }
  if (!s.opfamilyname)
    return 'an operator class is declared with its family here (CREATE OPERATOR FAMILY f USING m first, then CREATE OPERATOR CLASS … USING m FAMILY f AS …, as pg_dump writes it): without FAMILY, PostgreSQL makes a family the files would not declare';
  const family = usingName(s.opfamilyname, s.amname, defaultSchema);
  return {
    kind: 'operator class',
    name: usingName(s.opclassname, s.amname, defaultSchema),
    deps: [`operator family ${family}`, ...itemDeps(s.items, defaultSchema)],
  };
}
