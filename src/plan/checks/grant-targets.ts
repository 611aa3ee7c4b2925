// Grants PostgreSQL would refuse at apply, found by the live plan: to a role the server does not
// have (a typo, "did you mean"), or on a routine's signature that neither the manifest nor the
// cluster has (a grant file left on the routine's old arguments; an extension's are the cluster's:
// objects/extension-privileges.ts), or a REVOKE from a role that
// holds nothing on the object and does not own it (it would do nothing: only an owner holds
// privileges nobody granted). Each is a problem at the statement's file:line. Pure.
import type { ClusterModel, SqlObject } from '../../model/types.js';
import { refId, withoutArgs } from '../../model/object-ref.js';
import { quoteIdent } from '../../sql/quote.js';
import { didYouMean } from '../../manifest/suggest.js';
import type { DiffProblem } from '../problem.js';
import { ownerRole } from '../../objects/owner-objects.js';

/** The role a privileges object grants to (its name ends `to <grantee>`), unless PUBLIC. */
function granteeOf(o: SqlObject): string | undefined {
  const g = o.ownerRevoke?.role ?? o.defaultGrant?.grantee ?? / to ("(?:[^"]|"")+"|[^\s"]+)$/.exec(o.name)?.[1];
  if (g === undefined || g === 'PUBLIC') return undefined;
  return g.startsWith('"') ? g.slice(1, -1).replace(/""/g, '"') : g;
}

const ROUTINE = /^(?:function|procedure|routine) (.+\)) (?:to |revoked from )/;

export function grantTargetProblems(desired: ClusterModel, actual: ClusterModel): DiffProblem[] {
  const problems: DiffProblem[] = [];
  const roles = actual.roles ? new Set(actual.roles) : undefined;
  const signatures = [...Object.keys(desired.routines), ...Object.keys(actual.routines)];
  // An extension the plan creates may make the routine a GRANT names (its objects are known once it is there).
  const newExtension = Object.values(desired.objects).some((o) => o.kind === 'extension' && !actual.objects[o.id]);
  for (const o of Object.values(desired.objects)) {
    if (o.kind !== 'privileges') continue;
    const where = o.source !== undefined ? { where: o.source } : {};
    const role = roles ? granteeOf(o) : undefined;
    if (role !== undefined && !roles!.has(role))
      problems.push({
        code: 'unknown_role',
        object: o.id,
        ...where,
        message: `${o.ownerRevoke ? 'revokes from' : 'grants to'} role ${quoteIdent(role)}, which the server does not have${didYouMean(role, roles!)}: create the role first (roles are not managed here), or correct the name`,
      });
    else if (o.ownerRevoke) {
      // The owner the files give it to, else the one it has.
      const declared = desired.objects[`owner of ${o.ownerRevoke.target}`];
      const other = declared ? ownerRole(declared) : actual.owners?.[o.ownerRevoke.target];
      const owner = other ?? actual.reader;
      if (owner !== undefined && owner !== o.ownerRevoke.role)
        problems.push({
          code: 'revoke_from_non_owner',
          object: o.id,
          ...where,
          message: `revokes from ${o.ownerRevoke.role}, which holds nothing on ${o.ownerRevoke.target} and does not own it (${owner} does${other ? '' : ', the role that applies the plan'}): the REVOKE would do nothing; revoke from the owner what it should not hold, or drop the statement`,
        });
    }
    // Its name says the routine with its arguments ("function app.f(integer) to r").
    const routine =
      o.parent !== undefined && refId(o.parent, 'routine') !== undefined ? ROUTINE.exec(o.name)?.[1] : undefined;
    // (pg_catalog's functions are the server's: the catalog document does not list them all.)
    if (routine === undefined || newExtension || routine.startsWith('pg_catalog.')) continue;
    // (An aggregate is an object: GRANT … ON FUNCTION names it as a routine.)
    const aggregate = `aggregate ${routine}`;
    if (
      desired.routines[routine] ||
      actual.routines[routine] ||
      desired.objects[aggregate] ||
      actual.objects[aggregate]
    )
      continue;
    const others = signatures.filter((id) => id.includes('(') && withoutArgs(id) === withoutArgs(routine));
    problems.push({
      code: 'unknown_routine',
      object: o.id,
      ...where,
      message: `names routine ${routine}, which neither the manifest nor the cluster has${others.length > 0 ? `: its signature${others.length === 1 ? ' is' : 's are'} ${[...new Set(others)].join(', ')}` : ''}; grant on the routine as it is declared`,
    });
  }
  return problems;
}
