// Sequences of the manifest: a serial column's own sequence is matched to its column (type and
// owner), ranges are checked.
import { normalSequence, RANGE } from '../model/sequence-bounds.js';
import { idOf, type Sequence } from '../model/types.js';
import type { QualifiedName } from '../sql/quote.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import { qualifiedKey, type TableContext } from './resolve-context.js';
import type { Manifest } from './schema.js';
import { dict } from '../util/dict.js';

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

/** The table column a sequence's `owned_by` names, checked against the declared tables. */
function ownerOf(
  s: NonNullable<Manifest['sequences'][string]['owned_by']>,
  ctx: TableContext,
  path: Path,
  problems: ProblemList,
): Sequence['ownedBy'] {
  const table = ctx.lookup(s.table);
  if (table === undefined) {
    problems.error(
      [...path, 'table'],
      'unknown_table',
      `names table ${JSON.stringify(s.table)}, which the manifest does not declare`,
    );
    return undefined;
  }
  const cols = ctx.tables[table]!.columns;
  if (cols && !cols.some((c) => c.name === s.column)) {
    problems.error(
      [...path, 'column'],
      'unknown_column',
      `names column ${JSON.stringify(s.column)}, which table ${s.table} does not declare`,
    );
    return undefined;
  }
  return { table, column: s.column };
}

/** Sequences: types checked against the serial columns that own them, ranges checked. */
export function resolveSequences(m: Manifest, ctx: TableContext, problems: ProblemList): Record<string, Sequence> {
  const out = dict<Sequence>();
  const serials = new Map<string, { table: string; column: string; type: Sequence['type']; qname: QualifiedName }>();
  for (const t of Object.values(ctx.tables)) {
    for (const c of t.columns ?? []) {
      // PostgreSQL names a serial column's sequence <table>_<column>_seq, in the table's schema.
      const qname = { schema: t.qname.schema, name: `${t.qname.name}_${c.name}_seq` };
      if (c.type.serial)
        serials.set(idOf(qname), {
          qname,
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
    // Exact integers (decimal text): compared as bigints, and each within its type's range.
    const type = owner?.type ?? declared ?? 'bigint';
    const [lo, hi] = RANGE[type];
    for (const k of ['start', 'increment', 'min', 'max'] as const) {
      const v = s[k];
      if (v !== undefined && (BigInt(v) < lo || BigInt(v) > hi))
        problems.error([...path, k], 'invalid_range', `${k} ${v} is out of range for ${type} (${lo}..${hi})`);
    }
    const big = (v: string | undefined): bigint | undefined => (v === undefined ? undefined : BigInt(v));
    const [min, max, start] = [big(s.min), big(s.max), big(s.start)];
    if (min !== undefined && max !== undefined && min > max)
      problems.error([...path, 'min'], 'invalid_range', `min ${s.min} is greater than max ${s.max}`);
    if (start !== undefined && ((min !== undefined && start < min) || (max !== undefined && start > max))) {
      problems.error([...path, 'start'], 'invalid_range', `start ${s.start} is outside min..max`);
    }
    const declaredOwner = s.owned_by ? ownerOf(s.owned_by, ctx, [...path, 'owned_by'], problems) : undefined;
    if (owner && declaredOwner && (declaredOwner.table !== owner.table || declaredOwner.column !== owner.column))
      problems.error(
        [...path, 'owned_by'],
        'sequence_owner_mismatch',
        `is the own sequence of the serial column ${ctx.keyOf.get(owner.table)}.${owner.column}, which owns it`,
      );
    const ownedBy = owner ? { table: owner.table, column: owner.column } : declaredOwner;
    if (s.unlogged && ownedBy)
      problems.error(
        [...path, 'unlogged'],
        'owned_sequence_unlogged',
        'is owned by a column: it is logged or unlogged as its table is (ALTER TABLE … SET UNLOGGED changes it too); declare the table unlogged',
      );
    out[id] = normalSequence({
      id,
      qname: q,
      type: owner?.type ?? declared ?? 'bigint',
      cache: s.cache ?? '1',
      ...(s.start !== undefined ? { start: s.start } : {}),
      ...(s.increment !== undefined ? { increment: s.increment } : {}),
      ...(s.min !== undefined ? { min: s.min } : {}),
      ...(s.max !== undefined ? { max: s.max } : {}),
      cycle: s.cycle ?? false,
      ...(ownedBy ? { ownedBy } : {}),
      ...(s.unlogged && !ownedBy ? { unlogged: true } : {}),
      ...(s.renamed_from !== undefined ? { renamedFrom: s.renamed_from } : {}),
    });
  }
  // A serial column's sequence the manifest does not declare has CREATE TABLE's defaults: a
  // database where it has others differs (and is planned), never silently equal.
  for (const [id, owner] of serials)
    if (!out[id])
      out[id] = {
        id,
        qname: owner.qname,
        type: owner.type,
        cache: '1',
        cycle: false,
        ownedBy: { table: owner.table, column: owner.column },
        implicit: true,
      };
  return out;
}
