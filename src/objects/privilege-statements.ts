// The declared side of privileges: GRANT / REVOKE and ALTER DEFAULT PRIVILEGES statements from
// the SQL files, applied in order to a PrivilegeSet (privileges.ts renders it).
import { quoteIdent, quoteQualified } from '../sql/quote.js';
import { strings, type Node } from '../sql/pg-parse.js';
import { ALL, type DefaultsType, type PrivilegeSet, type Target, type TargetType } from './privileges.js';
import { relationRef, routineRef, sequenceRef, serverRef, typeRef } from '../model/object-ref.js';

/** A grantee as PostgreSQL names it: PUBLIC, or the quoted role name. */
export const granteeName = (r: Node): string | undefined =>
  r.RoleSpec?.roletype === 'ROLESPEC_PUBLIC'
    ? 'PUBLIC'
    : r.RoleSpec?.roletype === 'ROLESPEC_CSTRING'
      ? quoteIdent(r.RoleSpec.rolename)
      : undefined;

// PostgreSQL refuses it ("grant options can only be granted to roles"): refused here, not at apply.
const PUBLIC_GRANT_OPTION =
  'WITH GRANT OPTION to PUBLIC is refused: PostgreSQL grants options to roles only (every role would be able to grant it on)';

const TYPES: Readonly<Record<string, TargetType>> = {
  OBJECT_TABLE: 'TABLE',
  OBJECT_SEQUENCE: 'SEQUENCE',
  OBJECT_SCHEMA: 'SCHEMA',
  OBJECT_FUNCTION: 'FUNCTION',
  OBJECT_PROCEDURE: 'PROCEDURE',
  OBJECT_TYPE: 'TYPE',
  OBJECT_DOMAIN: 'TYPE',
  OBJECT_FOREIGN_SERVER: 'FOREIGN SERVER',
  OBJECT_FDW: 'FOREIGN DATA WRAPPER',
  OBJECT_LANGUAGE: 'LANGUAGE',
};

const DEFAULTS: Readonly<Record<string, DefaultsType>> = {
  OBJECT_TABLE: 'TABLES',
  OBJECT_SEQUENCE: 'SEQUENCES',
  OBJECT_FUNCTION: 'FUNCTIONS',
  OBJECT_TYPE: 'TYPES',
  OBJECT_SCHEMA: 'SCHEMAS',
};

/** Applies one ALTER DEFAULT PRIVILEGES statement; FOR ROLE is required (it is whoever runs it otherwise). */
export function applyDefaultPrivileges(set: PrivilegeSet, s: Node, where: string): string | undefined {
  const opt = (name: string): Node[] =>
    (s.options ?? []).find((o: Node) => o.DefElem?.defname === name)?.DefElem.arg?.List?.items ?? [];
  const roles = opt('roles').map(granteeName);
  if (roles.length === 0 || roles.some((r: string | undefined) => r === undefined || r === 'PUBLIC')) {
    return 'write FOR ROLE: default privileges belong to the role whose new objects get them, and without it that is whoever applies the plan';
  }
  const type = DEFAULTS[s.action.objtype];
  if (!type) return 'default privileges on this kind of object are not managed';
  const schemas: (string | undefined)[] = opt('schemas').map((x: Node) => {
    set.schemas.add(x.String.sval);
    return quoteIdent(x.String.sval);
  });
  const grantees = (s.action.grantees ?? []).map(granteeName);
  if (grantees.some((x: string | undefined) => x === undefined)) return 'grant to a named role or PUBLIC';
  if (s.action.is_grant && s.action.grant_option && grantees.includes('PUBLIC')) return PUBLIC_GRANT_OPTION;
  const privs: string[] = (s.action.privileges ?? []).map((p: Node) => String(p.AccessPriv.priv_name).toUpperCase());
  for (const role of roles as string[]) {
    for (const inSchema of schemas.length > 0 ? schemas : [undefined]) {
      const t: Target = { type, name: role, ...(inSchema ? { inSchema } : {}) };
      set.touch(t, where);
      for (const g of grantees as string[]) {
        if (!s.action.is_grant && !s.action.grant_option) set.revokeFrom(t, g, where);
        for (const p of privs.length === 0 || privs.includes('ALL') ? ALL[type] : privs) {
          if (s.action.is_grant) set.grant(t, g, p, Boolean(s.action.grant_option));
          else set.revoke(t, g, p, Boolean(s.action.grant_option));
        }
      }
    }
  }
  return undefined;
}

/** Applies one GRANT / REVOKE statement of an SQL file; returns a problem, if any. */
export function applyGrantStmt(
  set: PrivilegeSet,
  g: Node,
  schema: string,
  argTypes: (owa: Node) => string,
  where: string,
): string | undefined {
  if (g.targtype !== 'ACL_TARGET_OBJECT')
    return 'GRANT … ON ALL … IN SCHEMA is not supported (the objects it covers are known only when it runs): grant on each object, and use ALTER DEFAULT PRIVILEGES FOR ROLE … IN SCHEMA … for those made later';
  const type = TYPES[g.objtype];
  if (!type)
    return `GRANT / REVOKE on ${String(g.objtype)
      .replace(/^OBJECT_/, '')
      .toLowerCase()} is not managed`;
  const grantees = (g.grantees ?? []).map(granteeName);
  if (grantees.some((x: string | undefined) => x === undefined))
    return 'grant to a named role or PUBLIC (CURRENT_USER / SESSION_USER are not managed)';
  if (g.is_grant && g.grant_option && grantees.includes('PUBLIC')) return PUBLIC_GRANT_OPTION;
  const targets: Target[] = (g.objects ?? []).map((o: Node): Target => {
    if (o.RangeVar) {
      const name = quoteQualified({ schema: o.RangeVar.schemaname ?? schema, name: o.RangeVar.relname });
      return { type, name, parent: type === 'TABLE' ? relationRef(name) : sequenceRef(name) };
    }
    if (o.ObjectWithArgs) {
      const names = strings(o.ObjectWithArgs.objname);
      const n = names.length === 1 ? quoteQualified({ schema, name: names[0]! }) : names.map(quoteIdent).join('.');
      return { type, name: `${n}(${argTypes(o.ObjectWithArgs)})`, parent: routineRef(n) };
    }
    const names = o.String ? [o.String.sval as string] : strings(o.List?.items ?? o.TypeName?.names);
    if (type === 'SCHEMA') {
      set.schemas.add(names[0]!);
      return { type, name: quoteIdent(names[0]!) };
    }
    if (type === 'FOREIGN SERVER')
      return { type, name: quoteIdent(names[0]!), parent: serverRef(quoteIdent(names[0]!)) };
    // (What an extension or initdb made: extension-privileges.ts compares them.)
    if (type === 'FOREIGN DATA WRAPPER' || type === 'LANGUAGE') return { type, name: quoteIdent(names[0]!) };
    const n = names.length === 1 ? quoteQualified({ schema, name: names[0]! }) : names.map(quoteIdent).join('.');
    return { type, name: n, parent: typeRef(n) };
  });
  const privs: { name: string; cols?: string[] }[] = (g.privileges ?? []).map((p: Node) => ({
    name: String(p.AccessPriv.priv_name ?? 'all').toUpperCase(),
    ...(p.AccessPriv.cols ? { cols: strings(p.AccessPriv.cols) } : {}),
  }));
  for (const t of targets) {
    set.touch(t, where);
    const list: { name: string; cols?: string[] }[] =
      privs.length === 0
        ? ALL[type].map((name) => ({ name }))
        : privs.flatMap((p) =>
            p.name === 'ALL' ? ALL[type].map((name) => ({ name, ...(p.cols ? { cols: p.cols } : {}) })) : [p],
          );
    for (const grantee of grantees as string[]) {
      if (!g.is_grant && !g.grant_option && list.some((p) => !p.cols)) set.revokeFrom(t, grantee, where);
      for (const p of list) {
        for (const col of p.cols ?? [undefined]) {
          if (g.is_grant) set.grant(t, grantee, p.name, Boolean(g.grant_option), col);
          else set.revoke(t, grantee, p.name, Boolean(g.grant_option), col);
        }
      }
    }
  }
  return undefined;
}
