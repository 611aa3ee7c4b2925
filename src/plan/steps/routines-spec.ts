// Step records of functions and procedures: created, replaced, dropped, and distributed by Citus.
import { idOf } from '../../model/types.js';
import {
  catalogCall,
  quoteRegclass,
  tableNameLiteral,
  typedLiteral,
  typedValue,
  type QualifiedName,
} from '../../sql/quote.js';
import { statementHazards } from './statement-hazards.js';
import { routineSql } from './render-routines.js';
import type { StepOf } from './steps.js';
import { CITUS, PLAIN, type StepSpecs } from './spec-record.js';
import { q } from './sql-parts.js';
import { routineRef } from '../../model/object-ref.js';

type RoutineKind = 'create_routine' | 'replace_routine' | 'drop_routine' | 'distribute_routine';

const routineObject = (s: { routine: QualifiedName; signature?: string }): string =>
  routineRef(s.signature ?? idOf(s.routine));
const unchecked = (s: { uncheckedBody?: boolean }): string =>
  s.uncheckedBody ? ' (body not checked at CREATE: it reads what is created after it)' : '';

/** A routine reference for create_distributed_function: by signature, else resolved by name at apply time. */
function functionArg(s: StepOf<'distribute_routine'>): string {
  return s.signature !== undefined
    ? typedLiteral(s.signature, 'regprocedure')
    : `${quoteRegclass(s.routine)}::pg_catalog.regproc::pg_catalog.oid::pg_catalog.regprocedure`;
}

export const ROUTINE_SPECS: StepSpecs<RoutineKind> = {
  create_routine: {
    ...PLAIN,
    phase: () => 'routines',
    hazards: (s) => statementHazards([s.definition]),
    object: routineObject,
    // An unqualified CREATE lands in the first schema of search_path: pin it to the routine's schema.
    sql: (s) => routineSql(s),
    summary: (s) =>
      `create ${s.routineKind} ${s.signature}${unchecked(s)}${s.owner !== undefined ? ` (owner ${s.owner} kept)` : ''}`,
  },
  replace_routine: {
    ...PLAIN,
    phase: () => 'routines',
    hazards: (s) => statementHazards([s.definition]),
    object: routineObject,
    sql: (s) => routineSql(s),
    summary: (s) => `replace the body of ${s.routineKind} ${s.signature}${unchecked(s)}`,
  },
  drop_routine: {
    ...PLAIN,
    phase: (s) => (s.reason === 'prune' ? 'prune' : 'routines'),
    hazards: (s) => (s.reason === 'prune' ? [] : ['breaks_cached_plans']),
    object: routineObject,
    sql: (s) => [`DROP ${s.routineKind === 'procedure' ? 'PROCEDURE' : 'FUNCTION'} ${s.signature}`],
    summary: (s) =>
      s.reason === 'recreate'
        ? `drop ${s.routineKind} ${s.signature} to create it again (its result type or arguments changed)`
        : s.reason === 'signature'
          ? `drop ${s.routineKind} ${s.signature}: the manifest declares it with another argument list (its grants move to the new one)`
          : `drop ${s.routineKind} ${s.signature} (prune)`,
  },
  distribute_routine: {
    ...CITUS,
    phase: () => 'routine_distribution',
    hazards: () => [],
    object: routineObject,
    sql: (s) => [
      s.argIndex === undefined
        ? catalogCall('create_distributed_function', [
            functionArg(s),
            ...(s.colocateWith ? [`colocate_with => ${tableNameLiteral(s.colocateWith)}`] : []),
          ])
        : catalogCall('create_distributed_function', [
            functionArg(s),
            typedLiteral(`$${s.argIndex + 1}`, 'text'),
            `colocate_with => ${tableNameLiteral(s.colocateWith!)}`,
            `force_delegation => ${typedValue(s.forceDelegation ?? false)}`,
          ]),
    ],
    summary: (s) =>
      s.argIndex === undefined
        ? `create ${s.signature ?? q(s.routine)} on every node (not delegated)${s.colocateWith ? `, colocated with ${q(s.colocateWith)}` : ''}`
        : `delegate calls of ${s.signature ?? q(s.routine)} by $${s.argIndex + 1} to the worker holding ${q(s.colocateWith!)}'s shard${s.forceDelegation ? ', even inside transactions' : ''}`,
  },
};
