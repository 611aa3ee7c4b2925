// Hazards read from the statements a step runs: what changes who may see or do what. A routine
// running with its owner's rights, an extension (its scripts run as superuser), privileges of
// PUBLIC (every role), and row-level security taken away (a policy dropped, RLS disabled).
import { tryParseStatements, type Node } from '../sql/pg-parse.js';

import { SECURITY_HAZARDS, type SecurityHazard } from './security-hazards.js';

export { SECURITY_HAZARDS, type SecurityHazard } from './security-hazards.js';

const WEAKENING_TABLE_CHANGES = new Set(['AT_DisableRowSecurity', 'AT_NoForceRowSecurity']);

const securityDefiner = (options: readonly Node[] | undefined): boolean =>
  (options ?? []).some((o) => o.DefElem?.defname === 'security' && o.DefElem.arg?.Boolean?.boolval === true);

function hazardOf(stmt: Node): SecurityHazard | undefined {
  if (stmt.CreateFunctionStmt && securityDefiner(stmt.CreateFunctionStmt.options)) return 'security_definer';
  if (stmt.AlterFunctionStmt && securityDefiner(stmt.AlterFunctionStmt.actions)) return 'security_definer';
  if (stmt.CreateExtensionStmt) return 'creates_extension';
  const grant = stmt.GrantStmt ?? stmt.AlterDefaultPrivilegesStmt?.action;
  if (grant && (grant.grantees ?? []).some((g: Node) => g.RoleSpec?.roletype === 'ROLESPEC_PUBLIC'))
    return 'public_privileges';
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
