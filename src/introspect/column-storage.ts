// A column's SET STORAGE as the catalog query gives it (attstorage then typstorage, only when
// they differ) turned into the model's words.
import type { Column, ColumnStorage } from '../model/types.js';

const STORAGE: Readonly<Record<string, ColumnStorage>> = { p: 'plain', e: 'external', x: 'extended', m: 'main' };

/** The model's storage fields of a column, from the catalog's two letters (nothing when absent). */
export function storageOf(letters: string | null | undefined): Pick<Column, 'storage' | 'typeStorage'> {
  const storage = letters ? STORAGE[letters[0]!] : undefined;
  const typeStorage = letters ? STORAGE[letters[1]!] : undefined;
  return storage && typeStorage ? { storage, typeStorage } : {};
}

/** The model's identity and collation fields of a column, from the catalog's. */
export function identityAndCollation(c: {
  readonly identity: string;
  readonly collation?: string | null | undefined;
  readonly collationSchema?: string | null | undefined;
}): Pick<Column, 'identity' | 'collation' | 'collationSchema'> {
  return {
    ...(c.identity === 'a' ? { identity: 'always' } : c.identity === 'd' ? { identity: 'by default' } : {}),
    ...(c.collation ? { collation: c.collation } : {}),
    ...(c.collation && c.collationSchema ? { collationSchema: c.collationSchema } : {}),
  };
}
