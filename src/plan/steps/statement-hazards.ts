// Hazards read from the statements a step runs: what changes who may see or do what. A routine
// running with its owner's rights, an extension (its scripts run as superuser), privileges of
// PUBLIC (every role), and row-level security taken away (a policy dropped, RLS disabled).
import { strings, tryParseStatements, typeFromNode, type Node } from '../../sql/pg-parse.js';
import { quoteIdent } from '../../sql/quote.js';

import { SECURITY_HAZARDS, type SecurityHazard } from './security-hazards.js';

export { SECURITY_HAZARDS, type SecurityHazard } from './security-hazards.js';

const WEAKENING_TABLE_CHANGES = new Set(['AT_DisableRowSecurity', 'AT_NoForceRowSecurity']);

const securityDefiner = (options: readonly Node[] | undefined): boolean =>
  (options ?? []).some((o) => o.DefElem?.defname === 'security' && o.DefElem.arg?.Boolean?.boolval === true);

// PUBLIC is the RoleSpec the parser makes of the name public, however it is spelled: PUBLIC,
// "public", U&"\0070ublic" (PostgreSQL's grammar compares the name after it is read, so a role
// cannot be called "public": CREATE ROLE "public" fails, "role name "public" is reserved").
const toPublic = (grant: Node): boolean =>
  (grant.grantees ?? []).some((g: Node) => g.RoleSpec?.roletype === 'ROLESPEC_PUBLIC');

function hazardOf(stmt: Node): SecurityHazard | undefined {
  if (stmt.CreateFunctionStmt && securityDefiner(stmt.CreateFunctionStmt.options)) return 'security_definer';
  if (stmt.AlterFunctionStmt && securityDefiner(stmt.AlterFunctionStmt.actions)) return 'security_definer';
  if (stmt.CreateExtensionStmt) return 'creates_extension';
  const grant = stmt.GrantStmt ?? stmt.AlterDefaultPrivilegesStmt?.action;
  if (grant && toPublic(grant)) return 'public_privileges';
  if (stmt.DropStmt?.removeType === 'OBJECT_POLICY') return 'weakens_security';
  if ((stmt.AlterTableStmt?.cmds ?? []).some((c: Node) => WEAKENING_TABLE_CHANGES.has(c.AlterTableCmd?.subtype)))
    return 'weakens_security';
  return undefined;
}

/**
 * A word every statement with a hazard spells (SECURITY DEFINER, CREATE EXTENSION, TO PUBLIC,
 * DROP POLICY, DISABLE / NO FORCE ROW LEVEL SECURITY): a text without any has none, and is not
 * parsed (a plan's index, comment and key steps: thousands). Keywords cannot be escaped, but the
 * grantee PUBLIC is a name, and U&"\0070ublic" spells it without the letters: any U& is parsed.
 */
const HAZARD_WORD = /definer|extension|public|policy|security|u&/i;

/** The security hazards of statements a step runs, in SECURITY_HAZARDS order (text that does not parse has none). */
export function statementHazards(statements: readonly string[]): SecurityHazard[] {
  const found = new Set<SecurityHazard>();
  for (const text of statements)
    for (const raw of HAZARD_WORD.test(text) ? (tryParseStatements(text) ?? []) : []) {
      const h = hazardOf(raw.stmt);
      if (h) found.add(h);
    }
  return SECURITY_HAZARDS.filter((h) => found.has(h));
}

const OBJECT_WORDS: Readonly<Record<string, string>> = {
  OBJECT_TABLE: 'table',
  OBJECT_SEQUENCE: 'sequence',
  OBJECT_SCHEMA: 'schema',
  OBJECT_FUNCTION: 'function',
  OBJECT_PROCEDURE: 'procedure',
  OBJECT_ROUTINE: 'routine',
  OBJECT_TYPE: 'type',
  OBJECT_DOMAIN: 'domain',
};

function objectName(o: Node): string {
  if (o.RangeVar) return [o.RangeVar.schemaname, o.RangeVar.relname].filter(Boolean).map(quoteIdent).join('.');
  if (o.ObjectWithArgs) {
    let args: string;
    try {
      args = (o.ObjectWithArgs.objargs ?? []).map((t: Node) => typeFromNode(t.TypeName ?? t).sql).join(', ');
    } catch {
      args = '…';
    }
    return `${strings(o.ObjectWithArgs.objname).map(quoteIdent).join('.')}(${args})`;
  }
  return strings(o.String ? [o] : (o.List?.items ?? o.TypeName?.names))
    .map(quoteIdent)
    .join('.');
}

function privilegeList(grant: Node): string {
  const privs: string[] = (grant.privileges ?? []).map((p: Node) => {
    const cols = strings(p.AccessPriv.cols);
    return `${String(p.AccessPriv.priv_name ?? 'all').toUpperCase()}${cols.length ? ` (${cols.map(quoteIdent).join(', ')})` : ''}`;
  });
  return privs.length > 0 ? privs.join(', ') : 'ALL PRIVILEGES';
}

/** What one GRANT or ALTER DEFAULT PRIVILEGES … GRANT gives PUBLIC ("SELECT, INSERT on table app.t"), if anything. */
function publicGrant(stmt: Node): string | undefined {
  const adp = stmt.AlterDefaultPrivilegesStmt;
  const grant = stmt.GrantStmt ?? adp?.action;
  if (!grant?.is_grant || !toPublic(grant)) return undefined;
  const word =
    OBJECT_WORDS[grant.objtype] ??
    String(grant.objtype)
      .replace(/^OBJECT_/, '')
      .toLowerCase();
  if (adp) {
    const opt = (name: string): Node[] =>
      (adp.options ?? []).find((o: Node) => o.DefElem?.defname === name)?.DefElem.arg?.List?.items ?? [];
    const roles = opt('roles').map((r: Node) =>
      r.RoleSpec?.rolename ? quoteIdent(r.RoleSpec.rolename) : 'the applier',
    );
    const schemas = strings(opt('schemas')).map(quoteIdent);
    return `${privilegeList(grant)} on every ${word} ${roles.length ? roles.join(', ') : 'the applier'} creates${schemas.length ? ` in schema ${schemas.join(', ')}` : ''} from now on`;
  }
  const objects = (grant.objects ?? []).map(objectName).join(', ');
  if (grant.targtype === 'ACL_TARGET_ALL_IN_SCHEMA')
    return `${privilegeList(grant)} on every ${word} in schema ${objects}`;
  return `${privilegeList(grant)} on ${word} ${objects}`;
}

/**
 * What the statements give PUBLIC (every role, now and later), one line per grant, for a step's
 * summary: the public_privileges hazard says that they do, this says what.
 */
export function publicGrants(statements: readonly string[]): string[] {
  const out: string[] = [];
  for (const text of statements)
    for (const raw of /public|u&/i.test(text) ? (tryParseStatements(text) ?? []) : []) {
      const g = publicGrant(raw.stmt);
      if (g) out.push(g);
    }
  return out;
}
