// The catalog's privileges as objects: the ACLs of the user's objects (aclexplode rows), and those
// of what extensions made, compared with what their scripts left (extension-privileges.ts).
import type { SqlObject } from '../model/types.js';
import type { AclItem, ExtensionTarget } from '../model/privilege-types.js';
import { dict } from '../util/dict.js';
import { extensionTargetKey } from './extension-privileges.js';
import { PrivilegeSet, type Target, type TargetType } from './privileges.js';

/** One aclexplode row of the catalog query. */
export type AclRow = readonly [
  type: TargetType,
  name: string,
  parent: string | null,
  grantee: string | null,
  priv: string | null,
  grantable: boolean | null,
  column: string | null,
  inSchema?: string | null,
  owner?: string | null,
];

/**
 * The catalog's privileges as objects, by id (the query's rows come in whatever order its plan
 * gives: introspect's sql/privileges.sql would change order from one run to another); a row with
 * no grantee only says the target's ACL is set.
 */
export function privilegesFromCatalog(rows: readonly AclRow[]): SqlObject[] {
  const set = new PrivilegeSet();
  for (const [type, name, parent, grantee, priv, grantable, column, inSchema, owner] of rows) {
    const t: Target = { type, name, ...(parent ? { parent } : {}), ...(inSchema ? { inSchema } : {}) };
    set.touch(t);
    if (owner) set.setOwner(t, owner);
    if (grantee !== null && priv !== null) set.grant(t, grantee, priv, grantable ?? false, column ?? undefined);
  }
  return set.objects().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** One row of the catalog's `extensionAcls`: [type, name, owner, column, ACL now, ACL as the script left it]. */
export type ExtensionAclRow = readonly [
  type: ExtensionTarget['type'],
  name: string,
  owner: string,
  column: string | null,
  now: readonly AclItem[] | null,
  init: readonly AclItem[] | null,
];

/** What extensions made (and the languages), by extensionTargetKey, each with its columns' ACLs. */
export function extensionTargetsOf(rows: readonly ExtensionAclRow[]): Record<string, ExtensionTarget> {
  const out = dict<ExtensionTarget>();
  for (const [type, name, owner, column, now, init] of rows) {
    const key = extensionTargetKey({ type, name });
    const have = out[key];
    if (column === null || have === undefined) {
      out[key] = { type, name, owner, now, init, ...(have?.columns ? { columns: have.columns } : {}) };
      continue;
    }
    out[key] = { ...have, columns: { ...have.columns, [column]: { now: now ?? [], init: init ?? [] } } };
  }
  return out;
}
