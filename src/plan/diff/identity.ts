// An existing column's identity: ADD / SET GENERATED / DROP IDENTITY, and its sequence's options
// (ALTER COLUMN … SET INCREMENT BY / SET MINVALUE / …). What Citus or PostgreSQL would refuse is
// a problem, never a failed apply.
import { identityBounds, identitySequence, isIntegerType, sameIdentityOptions } from '../../model/identity-options.js';
import { effectiveBounds } from '../../model/sequence-bounds.js';
import type { Column, Table } from '../../model/types.js';
import { quoteIdent } from '../../sql/quote.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';

/** Reports a change Citus refuses on this table as a problem. */
type Refuse = (what: string) => void;

/** The steps that take an existing column's identity from `ac` to `c`. */
export function identitySteps(
  t: Table,
  a: Table,
  c: Column,
  ac: Column,
  problems: DiffProblem[],
  refused: Refuse,
): Step[] {
  // Citus refuses ADD / SET / DROP IDENTITY and every SET <sequence option> on a distributed,
  // reference or Citus local table ("alter table command is currently unsupported"), and ALTER
  // SEQUENCE of the identity sequence once the table is distributed.
  const onCitus = a.distribution.kind !== 'local';
  const steps: Step[] = [];
  if (c.identity !== ac.identity) {
    if (onCitus)
      refused(
        c.identity === undefined
          ? 'drops its identity'
          : ac.identity === undefined
            ? 'becomes an identity column'
            : `changes its identity to ${c.identity}`,
      );
    else
      steps.push({
        kind: 'alter_column_identity',
        table: t.qname,
        column: c.name,
        ...(c.identity ? { identity: c.identity } : {}),
        ...(ac.identity ? { from: ac.identity } : {}),
        ...(c.identity && !ac.identity && c.identityOptions ? { options: c.identityOptions } : {}),
        ...(c.identity && !ac.identity && c.identitySequence !== undefined ? { sequence: c.identitySequence } : {}),
      });
  }
  // Its sequence's name, when the manifest gives one: renamed in place (on Citus the coordinator's;
  // the workers' copies keep the name Citus gave them, docs/citus-facts.md).
  const named = (x: Column): string => x.identitySequence ?? `${a.qname.name}_${x.name}_seq`;
  if (c.identity && ac.identity && c.identitySequence !== undefined && named(c) !== named(ac))
    steps.push({ kind: 'rename_sequence', sequence: { schema: a.qname.schema, name: named(ac) }, to: named(c) });
  const type = c.type.base;
  if (!c.identity || !ac.identity || !isIntegerType(type) || sameIdentityOptions(c.identityOptions, ac.identityOptions))
    return steps;
  if (onCitus) {
    refused('changes its identity sequence options');
    return steps;
  }
  const { min, max } = identityBounds(type, c.identityOptions);
  const last = ac.identityLast !== undefined && /^-?\d+$/.test(ac.identityLast) ? BigInt(ac.identityLast) : undefined;
  if (last !== undefined && (last < min || last > max)) {
    problems.push({
      code: 'identity_value_out_of_range',
      object: `${t.id}.${quoteIdent(c.name)}`,
      message: `its identity sequence is at ${last}, outside the new min..max (${min}..${max}): PostgreSQL refuses the change ("RESTART value … cannot be …"); choose bounds that hold ${last}, or restart the sequence by hand (ALTER TABLE … ALTER COLUMN … RESTART WITH …) where no row holds the values it would give again`,
    });
    return steps;
  }
  // A sequence never used restarts at its new START, as a new column's would; one in use goes on
  // from where it is (PostgreSQL's SET START WITH changes only what RESTART goes back to).
  const start = (o: Column['identityOptions']) => effectiveBounds(identitySequence(type, o)).start;
  const restart = ac.identityLast === 'unused' && start(c.identityOptions) !== start(ac.identityOptions);
  steps.push({
    kind: 'alter_column_identity_options',
    table: t.qname,
    column: c.name,
    type,
    ...(c.identityOptions ? { to: c.identityOptions } : {}),
    ...(ac.identityOptions ? { from: ac.identityOptions } : {}),
    ...(restart ? { restart: true } : {}),
  });
  return steps;
}
