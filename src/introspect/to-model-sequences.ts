// The catalog's sequences as the model holds them: every option that is PostgreSQL's default for
// the sequence's type and direction left out (model/sequence-bounds.ts), as the manifest's side is.
// An identity column's own sequence is not a sequence of the model: its options are its column's.
import { normalIdentityOptions } from '../model/identity-options.js';
import { effectiveBounds, isDefaultBound, normalSequence } from '../model/sequence-bounds.js';
import { idOf, type Column, type Sequence } from '../model/types.js';
import type { CatalogDoc } from '../model/catalog-doc.js';
import { dict } from '../util/dict.js';

type CatalogSequence = CatalogDoc['sequences'][number];

/** The catalog's integer text in the model's form (no leading zeros or sign: BigInt's). */
const intText = (text: string): string => BigInt(text).toString();

/** A catalog sequence's type and options, those at their defaults left out. */
function options(s: CatalogSequence): Omit<Sequence, 'id' | 'qname'> {
  const type = (['smallint', 'integer', 'bigint'].includes(s.type) ? s.type : 'bigint') as Sequence['type'];
  // Every option exactly, as the catalog prints it (bigint's bounds are past 2^53).
  const inc = intText(s.increment);
  const min = isDefaultBound('min', s.min, type, inc) ? undefined : intText(s.min);
  const max = isDefaultBound('max', s.max, type, inc) ? undefined : intText(s.max);
  const start =
    BigInt(s.start) === effectiveBounds({ type, increment: inc, min, max }).start ? undefined : intText(s.start);
  return normalSequence({
    id: '',
    qname: { schema: '', name: '' },
    type,
    cache: intText(s.cache),
    ...(start !== undefined ? { start } : {}),
    ...(inc !== undefined ? { increment: inc } : {}),
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
    cycle: s.cycle,
  });
}

/** The sequences of a catalog document (an identity column's own ones are part of their column). */
export function sequencesFromCatalog(doc: CatalogDoc): Record<string, Sequence> {
  const sequences = dict<Sequence>();
  for (const s of doc.sequences) {
    // An identity column's sequence is part of the column (identityOfColumns), not an object of its own.
    if (s.ownedBy?.deptype === 'i') continue;
    const id = idOf(s);
    const { id: _id, qname: _qname, ...o } = options(s) as Sequence;
    sequences[id] = {
      id,
      qname: { schema: s.schema, name: s.name },
      ...o,
      ...(s.workersDiffer ? { workersDiffer: true } : {}),
      ...(s.unlogged && !s.ownedBy ? { unlogged: true } : {}),
      ...(s.ownedBy && s.ownedBy.deptype === 'a'
        ? { ownedBy: { table: idOf({ schema: s.ownedBy.schema, name: s.ownedBy.table }), column: s.ownedBy.column } }
        : {}),
      distributed: s.distributed,
    };
  }
  return sequences;
}

/** Each identity column's sequence options and last value, keyed `table id/column`. */
export function identityOfColumns(
  doc: CatalogDoc,
): Map<string, Pick<Column, 'identityOptions' | 'identityLast' | 'identitySequence'>> {
  const out = new Map<string, Pick<Column, 'identityOptions' | 'identityLast' | 'identitySequence'>>();
  for (const s of doc.sequences) {
    if (s.ownedBy?.deptype !== 'i') continue;
    const o = options(s);
    const identityOptions = normalIdentityOptions(o.type, o);
    out.set(`${idOf({ schema: s.ownedBy.schema, name: s.ownedBy.table })}/${s.ownedBy.column}`, {
      ...(identityOptions ? { identityOptions } : {}),
      // Its name when not the one CREATE TABLE gives it (one in another schema is named as not managed).
      ...(s.schema === s.ownedBy.schema && s.name !== `${s.ownedBy.table}_${s.ownedBy.column}_seq`
        ? { identitySequence: s.name }
        : {}),
      ...(s.lastValue ? { identityLast: s.lastValue } : {}),
    });
  }
  return out;
}
