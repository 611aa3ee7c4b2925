// The catalog's privileges as objects: the ACLs of the user's objects (aclexplode rows), and those
// of what extensions made, compared with what their scripts left (extension-privileges.ts).
import type { SqlObject } from '../model/types.js';
import type { AclItem, ExtensionTarget } from '../model/privilege-types.js';
import { dict } from '../util/dict.js';
import { quoteIdent } from '../sql/quote.js';
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

/** One row of the catalog's `extensionAcls`: [type, name, owner, column, ACL now ("init": as it was left), ACL as the script or initdb left it], each ACL its aclitems' text. */
export type ExtensionAclRow = readonly [
  type: ExtensionTarget['type'],
  name: string,
  owner: string,
  column: string | null,
  now: readonly string[] | null | 'init',
  init: readonly string[] | null,
];

// aclitem's privilege letters (PostgreSQL's ACL_ALL_RIGHTS_STR, "arwdDxtXUCTcsAm").
const LETTERS: Readonly<Record<string, string>> = {
  r: 'SELECT',
  a: 'INSERT',
  w: 'UPDATE',
  d: 'DELETE',
  D: 'TRUNCATE',
  x: 'REFERENCES',
  t: 'TRIGGER',
  X: 'EXECUTE',
  U: 'USAGE',
  C: 'CREATE',
  T: 'TEMPORARY',
  c: 'CONNECT',
  s: 'SET',
  A: 'ALTER SYSTEM',
  m: 'MAINTAIN',
};

/**
 * One aclitem as PostgreSQL prints it, `grantee=privileges/grantor` (the grantee double-quoted,
 * `""` for a quote, when it holds anything but letters, digits and underscores; empty: PUBLIC; `*`
 * after a privilege: with grant option), as entries [grantee, privilege, grantable].
 */
export function aclItemEntries(text: string): AclItem[] {
  let i = 0;
  let name = '';
  if (text.startsWith('"')) {
    for (i = 1; i < text.length; i++) {
      if (text[i] !== '"') name += text[i];
      else if (text[i + 1] === '"') name += text[++i];
      else break;
    }
    i++;
  } else while (i < text.length && text[i] !== '=') name += text[i++];
  if (text[i] !== '=') throw new Error(`not an aclitem: ${text}`);
  const grantee = name === '' ? 'PUBLIC' : quoteIdent(name);
  const out: AclItem[] = [];
  for (i++; i < text.length && text[i] !== '/'; i++) {
    const priv = LETTERS[text[i]!];
    if (priv === undefined) throw new Error(`unknown privilege ${text[i]} in aclitem ${text}`);
    const grantable = text[i + 1] === '*';
    if (grantable) i++;
    out.push([grantee, priv, grantable]);
  }
  return out;
}
const entries = (acl: readonly string[] | null): AclItem[] | null => acl && acl.flatMap(aclItemEntries);

/** What extensions made, the languages and pg_catalog's own objects, by extensionTargetKey, each with its columns' ACLs. */
export function extensionTargetsOf(rows: readonly ExtensionAclRow[]): Record<string, ExtensionTarget> {
  const out = dict<ExtensionTarget>();
  for (const [type, name, owner, column, nowText, initText] of rows) {
    const key = extensionTargetKey({ type, name });
    const init = entries(initText);
    const now = nowText === 'init' ? init : entries(nowText);
    // (A column's row without its table's: the table's ACL is not set.)
    const have = out[key] ?? (column === null ? undefined : { type, name, owner, now: null, init: null });
    if (column === null || have === undefined) {
      out[key] = { type, name, owner, now, init };
      continue;
    }
    const left = init ?? [];
    out[key] = {
      ...have,
      columns: { ...have.columns, [column]: { now: nowText === 'init' ? left : (now ?? []), init: left } },
    };
  }
  return out;
}
