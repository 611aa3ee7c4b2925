// The catalog's sequences as the model holds them: every option that is PostgreSQL's default for
// the sequence's type and direction left out (model/sequence-bounds.ts), as the manifest's side is.
import { effectiveBounds, isDefaultBound, normalSequence } from '../model/sequence-bounds.js';
import { idOf, type Sequence } from '../model/types.js';
import type { CatalogDoc } from './catalog-schema.js';

const safeNumber = (text: string): number | undefined => {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
};

/** The sequences of a catalog document (an identity column's own ones are part of their column). */
export function sequencesFromCatalog(doc: CatalogDoc): Record<string, Sequence> {
  const sequences: Record<string, Sequence> = {};
  for (const s of doc.sequences) {
    // An identity column's sequence is part of the column (reported as not managed), not an object of its own.
    if (s.ownedBy?.deptype === 'i') continue;
    const id = idOf(s);
    const type = (['smallint', 'integer', 'bigint'].includes(s.type) ? s.type : 'bigint') as Sequence['type'];
    const inc = safeNumber(s.increment);
    // A bigint's default bounds are not safe JavaScript integers: they are compared as exact integers.
    const min = isDefaultBound('min', s.min, type, inc) ? undefined : safeNumber(s.min);
    const max = isDefaultBound('max', s.max, type, inc) ? undefined : safeNumber(s.max);
    const start =
      BigInt(s.start) === effectiveBounds({ type, increment: inc, min, max }).start ? undefined : safeNumber(s.start);
    sequences[id] = normalSequence({
      id,
      qname: { schema: s.schema, name: s.name },
      type,
      cache: Number(s.cache),
      ...(s.workersDiffer ? { workersDiffer: true } : {}),
      ...(start !== undefined ? { start } : {}),
      ...(inc !== undefined ? { increment: inc } : {}),
      ...(min !== undefined ? { min } : {}),
      ...(max !== undefined ? { max } : {}),
      cycle: s.cycle,
      ...(s.ownedBy && s.ownedBy.deptype === 'a'
        ? { ownedBy: { table: idOf({ schema: s.ownedBy.schema, name: s.ownedBy.table }), column: s.ownedBy.column } }
        : {}),
      distributed: s.distributed,
    });
  }
  return sequences;
}
