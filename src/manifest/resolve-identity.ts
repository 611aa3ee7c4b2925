// An identity column's `identity:` (`always`, `by default`, or an object with its sequence
// options), checked as PostgreSQL checks CREATE SEQUENCE's options, so a plan never carries a
// value PostgreSQL refuses ("MINVALUE (…) is out of range for sequence data type integer",
// "MINVALUE (…) must be less than MAXVALUE (…)", "START value (…) cannot be less than MINVALUE").
import { identitySequence, isIntegerType, normalIdentityOptions } from '../model/identity-options.js';
import { effectiveBounds, RANGE } from '../model/sequence-bounds.js';
import type { Column } from '../model/types.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { ManifestColumn } from './schema.js';

type IdentitySpec = NonNullable<Exclude<ManifestColumn, string>['identity']>;

/** The model's identity fields of a column of type `type`; undefined (with a located problem) when refused. */
export function resolveIdentity(
  type: { readonly base: string; readonly sql: string },
  spec: IdentitySpec,
  path: Path,
  problems: ProblemList,
): Pick<Column, 'identity' | 'identityOptions' | 'identitySequence'> | undefined {
  const base = type.base;
  if (!isIntegerType(base)) {
    problems.error(path, 'identity_type', `an identity column is smallint, integer or bigint, not ${type.sql}`);
    return undefined;
  }
  if (typeof spec === 'string') return { identity: spec };
  const { generated, sequence_name: sequence, ...given } = spec;
  const [lo, hi] = RANGE[base];
  for (const k of ['start', 'min', 'max'] as const) {
    const v = given[k];
    if (v !== undefined && (BigInt(v) < lo || BigInt(v) > hi)) {
      problems.error([...path, k], 'invalid_range', `${k} ${v} is out of range for ${base} (${lo}..${hi})`);
      return undefined;
    }
  }
  const b = effectiveBounds(identitySequence(base, given));
  if (b.min >= b.max) {
    problems.error(
      [...path, given.min !== undefined ? 'min' : 'max'],
      'invalid_range',
      `min ${b.min} must be less than max ${b.max}${given.min === undefined || given.max === undefined ? ' (the one not given is the default for the increment)' : ''}`,
    );
    return undefined;
  }
  if (b.start < b.min || b.start > b.max) {
    problems.error(
      [...path, given.start !== undefined ? 'start' : 'min'],
      'invalid_range',
      `start ${b.start} is outside min..max (${b.min}..${b.max})`,
    );
    return undefined;
  }
  const identityOptions = normalIdentityOptions(base, given);
  return {
    identity: generated,
    ...(identityOptions ? { identityOptions } : {}),
    ...(sequence !== undefined ? { identitySequence: sequence } : {}),
  };
}
