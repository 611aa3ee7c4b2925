// Default privileges land on what the plan creates: with ALTER DEFAULT PRIVILEGES … GRANT SELECT
// ON TABLES TO r in the database, a table the plan creates gives r SELECT at once, whatever the
// manifest declares for it (a committed apply then "did not converge"). Right after each new
// table or sequence, in the same transaction, what the defaults in force give is taken back;
// the declared GRANTs follow in the objects phase, so it ends with exactly its declared privileges.
import type { ClusterModel } from '../model/types.js';
import { quoteIdent, type QualifiedName } from '../sql/quote.js';
import type { Step } from './steps.js';

/** revoke_default_privileges steps for the tables and sequences `steps` create. */
export function defaultPrivilegeRevokes(actual: ClusterModel, steps: readonly Step[]): Step[] {
  // The defaults in force when the CREATE runs are the cluster's: those the plan adds come after it.
  const defaults = Object.values(actual.objects).flatMap((o) => (o.defaultGrant ? [o.defaultGrant] : []));
  if (defaults.length === 0) return [];
  const out: Step[] = [];
  const add = (target: 'TABLE' | 'SEQUENCE', name: QualifiedName): void => {
    const on = target === 'TABLE' ? 'TABLES' : 'SEQUENCES';
    // Defaults are per creating role (FOR ROLE): whichever role applies, revoking from a grantee
    // that got nothing changes nothing.
    const grantees = [
      ...new Set(
        defaults
          .filter((d) => d.on === on && (d.inSchema === undefined || d.inSchema === quoteIdent(name.schema)))
          .map((d) => d.grantee),
      ),
    ];
    if (grantees.length > 0) out.push({ kind: 'revoke_default_privileges', target, name, grantees });
  };
  for (const s of steps) {
    if (s.kind === 'create_table') add('TABLE', s.table);
    else if (s.kind === 'create_sequence') add('SEQUENCE', s.sequence.qname);
  }
  return out;
}
