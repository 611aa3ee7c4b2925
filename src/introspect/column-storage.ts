// A column's SET STORAGE as the catalog query gives it (attstorage then typstorage, only when
// they differ) turned into the model's words, and a column as the manifest writes it.
import type { Column, ColumnStorage, IdentityOptions } from '../model/types.js';
import { yamlInt } from '../manifest/yaml-numbers.js';

const STORAGE: Readonly<Record<string, ColumnStorage>> = { p: 'plain', e: 'external', x: 'extended', m: 'main' };

/** The model's storage fields of a column, from the catalog's two letters (nothing when absent). */
export function storageOf(letters: string | null | undefined): Pick<Column, 'storage' | 'typeStorage'> {
  const storage = letters ? STORAGE[letters[0]!] : undefined;
  const typeStorage = letters ? STORAGE[letters[1]!] : undefined;
  return storage && typeStorage ? { storage, typeStorage } : {};
}

/** Attribute options as the catalog gives them (`{n_distinct=-0.5}`), by name. */
export const attributeOptions = (options: readonly string[]): Record<string, string> =>
  Object.fromEntries(options.map((o) => [o.slice(0, o.indexOf('=')), o.slice(o.indexOf('=') + 1)]));

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

/** A column as the manifest writes it: its type alone, or an object with its options. */
export function columnEntry(c: Column): string | Record<string, unknown> {
  const plain =
    !c.notNull &&
    c.default === undefined &&
    c.identity === undefined &&
    c.generated === undefined &&
    c.collation === undefined &&
    c.storage === undefined &&
    c.statistics === undefined &&
    c.compression === undefined &&
    c.options === undefined;
  if (plain) return c.type.sql;
  return {
    type: c.type.sql,
    ...(c.notNull && c.identity === undefined ? { not_null: true } : {}),
    ...(c.default !== undefined ? { default: c.default } : {}),
    ...(c.identity !== undefined
      ? {
          identity:
            c.identityOptions || c.identitySequence !== undefined
              ? {
                  generated: c.identity,
                  ...(c.identitySequence !== undefined ? { sequence_name: c.identitySequence } : {}),
                  ...identityEntry(c.identityOptions ?? {}),
                }
              : c.identity,
        }
      : {}),
    ...(c.generated !== undefined ? { generated: c.generated } : {}),
    ...(c.collation !== undefined
      ? { collation: c.collationSchema ? { schema: c.collationSchema, name: c.collation } : c.collation }
      : {}),
    ...(c.storage !== undefined ? { storage: c.storage } : {}),
    ...(c.statistics !== undefined ? { statistics: c.statistics } : {}),
    ...(c.compression !== undefined ? { compression: c.compression } : {}),
    ...(c.options !== undefined
      ? { options: Object.fromEntries(Object.entries(c.options).map(([k, v]) => [k, Number(v)])) }
      : {}),
  };
}

/** An identity column's sequence options in the manifest's order (the model holds only those not at their defaults). */
const identityEntry = (o: IdentityOptions): Record<string, unknown> => ({
  ...(o.start !== undefined ? { start: yamlInt(o.start) } : {}),
  ...(o.increment !== undefined ? { increment: yamlInt(o.increment) } : {}),
  ...(o.min !== undefined ? { min: yamlInt(o.min) } : {}),
  ...(o.max !== undefined ? { max: yamlInt(o.max) } : {}),
  ...(o.cache !== undefined ? { cache: yamlInt(o.cache) } : {}),
  ...(o.cycle ? { cycle: true } : {}),
});
