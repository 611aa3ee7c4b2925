// Owners as objects: `ALTER … OWNER TO role` in a sql: file declares who owns an object, as an
// `owner` object of its own (`owner of relation app.t`), the one the catalog reads back
// (introspect/catalog-owner-objects.ts) when another role than the applier owns it. It is named
// by a class, not by the statement's keyword (ALTER TABLE names a view too): relation, routine,
// type, schema, operator, … An object no statement gives to a role belongs to the role that
// applies the plan, as CREATE leaves it; what another role owns is then left as it is and listed
// unmanaged, or with `prune: true` given back to the applier (`… OWNER TO CURRENT_USER`).
import type { Node } from '../sql/pg-parse.js';
import { quoteIdent } from '../sql/quote.js';
import type { SqlObject } from '../model/types.js';
import { relationRef, sequenceRef } from '../model/object-ref.js';
import type { Classified } from './alter-table.js';
import { relName } from './statement-parts.js';
import { commentTarget, operatorTarget } from './comment-target.js';

/** ALTER TABLE's object types, as ALTER … OWNER TO spells them. */
const RELATION_KEYWORDS: Readonly<Record<string, string>> = {
  OBJECT_TABLE: 'TABLE',
  OBJECT_VIEW: 'VIEW',
  OBJECT_MATVIEW: 'MATERIALIZED VIEW',
  OBJECT_SEQUENCE: 'SEQUENCE',
  OBJECT_FOREIGN_TABLE: 'FOREIGN TABLE',
};

/** The class an owner object is named by, from the statement's keyword. */
function ownerClass(keyword: string): string {
  if (['TABLE', 'VIEW', 'MATERIALIZED VIEW', 'FOREIGN TABLE', 'SEQUENCE'].includes(keyword)) return 'relation';
  if (['FUNCTION', 'PROCEDURE', 'AGGREGATE', 'ROUTINE'].includes(keyword)) return 'routine';
  if (keyword === 'DOMAIN') return 'type';
  return keyword.toLowerCase();
}

/** The owner an AlterOwnerStmt or an ALTER TABLE … OWNER TO declares: an object, or why it is refused. */
type OwnerDecl = Classified & { readonly statement: string };

function roleOf(spec: Node | undefined): string {
  const r = spec?.RoleSpec ?? spec;
  if (r?.roletype === 'ROLESPEC_CSTRING') return quoteIdent(r.rolename);
  return '';
}

const ROLE_REFUSED =
  'OWNER TO CURRENT_USER / CURRENT_ROLE / SESSION_USER is refused: who that is depends on who applies the plan; name the role (an object no statement gives to a role belongs to the role that applies the plan)';

function decl(keyword: string, target: string, role: string, parent: string | undefined): OwnerDecl | string {
  if (role === '') return ROLE_REFUSED;
  return {
    kind: 'owner',
    name: `of ${ownerClass(keyword)} ${target}`,
    ...(parent !== undefined ? { parent } : {}),
    deps: [],
    statement: `ALTER ${keyword} ${target} OWNER TO ${role}`,
  };
}

/** ALTER TABLE / VIEW / MATERIALIZED VIEW / SEQUENCE / FOREIGN TABLE … OWNER TO, or undefined when the statement is another ALTER TABLE. */
export function tableOwner(s: Node, defaultSchema: string): OwnerDecl | string | undefined {
  const cmds = (s.cmds ?? []).map((c: Node) => c.AlterTableCmd);
  if (!cmds.some((c: Node) => c?.subtype === 'AT_ChangeOwner')) return undefined;
  if (cmds.length !== 1) return 'write OWNER TO in an ALTER statement of its own';
  const keyword = RELATION_KEYWORDS[s.objtype];
  if (!keyword) return `ALTER ${String(s.objtype).replace(/^OBJECT_/, '')} … OWNER TO is not managed here`;
  const table = relName(s.relation, defaultSchema);
  const parent = keyword === 'SEQUENCE' ? sequenceRef(table) : relationRef(table);
  return decl(keyword, table, roleOf(cmds[0].newowner), parent);
}

/** ALTER <kind> name OWNER TO role (the kinds other than relations). */
export function alterOwner(s: Node, defaultSchema: string, argTypes: (n: Node) => string): OwnerDecl | string {
  const role = roleOf(s.newowner);
  if (s.objectType === 'OBJECT_OPERATOR') {
    const target = operatorTarget(s.object.ObjectWithArgs, defaultSchema);
    return decl('OPERATOR', target, role, `operator ${target}`);
  }
  const objtype = s.objectType === 'OBJECT_ROUTINE' ? 'OBJECT_FUNCTION' : s.objectType;
  // ALTER TYPE / DOMAIN names the type as a list of names (COMMENT ON as a TypeName).
  const object =
    (objtype === 'OBJECT_TYPE' || objtype === 'OBJECT_DOMAIN') && s.object?.List
      ? { TypeName: { names: s.object.List.items } }
      : s.object;
  const t = commentTarget({ objtype, object }, defaultSchema, argTypes);
  if (typeof t === 'string')
    return `ALTER ${String(s.objectType)
      .replace(/^OBJECT_/, '')
      .replace(/_/g, ' ')} … OWNER TO is not managed here`;
  const keyword = s.objectType === 'OBJECT_ROUTINE' ? 'ROUTINE' : t.keyword;
  // A schema's parent is nothing (as a comment on it); the rest go with their object.
  const parent = keyword === 'SCHEMA' ? undefined : t.parent;
  return decl(keyword, t.target, role, parent);
}

/** The role (quoted) an owner object gives its object to. */
export function ownerRole(o: SqlObject): string {
  return / OWNER TO ("(?:[^"]|"")+"|[^\s"]+)$/.exec(o.create[0] ?? '')?.[1] ?? '';
}

/** The role an owner object names, unquoted (as pg_roles has it). */
export const unquotedRole = (role: string): string =>
  role.startsWith('"') ? role.slice(1, -1).replace(/""/g, '"') : role;
