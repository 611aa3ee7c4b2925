// Sequences of the manifest: a serial column's own sequence is matched to its column (type and
// owner), ranges are checked.
import { idOf, type Sequence } from '../model/types.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import { qualifiedKey, type TableContext } from './resolve-context.js';
import type { Manifest } from './schema.js';

function canonicalSeqType(t: string | undefined): Sequence['type'] | undefined {
  if (t === undefined) return undefined;
  return (
    {
      smallint: 'smallint',
      int2: 'smallint',
      integer: 'integer',
      int: 'integer',
      int4: 'integer',
      bigint: 'bigint',
      int8: 'bigint',
    } as const
  )[t as 'int'];
}

/** Sequences: types checked against the serial columns that own them, ranges checked. */
export function resolveSequences(m: Manifest, ctx: TableContext, problems: ProblemList): Record<string, Sequence> {
  const out: Record<string, Sequence> = {};
  const serials = new Map<string, { table: string; column: string; type: Sequence['type'] }>();
  for (const t of Object.values(ctx.tables)) {
    for (const c of t.columns ?? []) {
      // PostgreSQL names a serial column's sequence <table>_<column>_seq, in the table's schema.
      if (c.type.serial)
        serials.set(idOf({ schema: t.qname.schema, name: `${t.qname.name}_${c.name}_seq` }), {
          table: t.id,
          column: c.name,
          type: c.type.base as Sequence['type'],
        });
    }
  }
  for (const [key, s] of Object.entries(m.sequences)) {
    const path: Path = ['sequences', key];
    const q = qualifiedKey(key, ctx.defaultSchema, path, problems, 'sequence');
    if (!q) continue;
    const id = idOf(q);
    if (out[id]) {
      problems.error(path, 'duplicate_name', `declares sequence ${id} a second time`, true);
      continue;
    }
    const owner = serials.get(id);
    const declared = canonicalSeqType(s.type);
    if (owner && declared && declared !== owner.type) {
      problems.error(
        [...path, 'type'],
        'sequence_type_mismatch',
        `type ${declared} differs from the type of the serial column ${ctx.keyOf.get(owner.table)}.${owner.column} that owns it (${owner.type})`,
      );
    }
    if (s.min !== undefined && s.max !== undefined && s.min > s.max)
      problems.error([...path, 'min'], 'invalid_range', `min ${s.min} is greater than max ${s.max}`);
    if (
      s.start !== undefined &&
      ((s.min !== undefined && s.start < s.min) || (s.max !== undefined && s.start > s.max))
    ) {
      problems.error([...path, 'start'], 'invalid_range', `start ${s.start} is outside min..max`);
    }
    out[id] = {
      id,
      qname: q,
      type: owner?.type ?? declared ?? 'bigint',
      cache: s.cache ?? 1,
      ...(s.start !== undefined ? { start: s.start } : {}),
      ...(s.increment !== undefined ? { increment: s.increment } : {}),
      ...(s.min !== undefined ? { min: s.min } : {}),
      ...(s.max !== undefined ? { max: s.max } : {}),
      cycle: s.cycle ?? false,
      ...(owner ? { ownedBy: { table: owner.table, column: owner.column } } : {}),
    };
  }
  return out;
}
