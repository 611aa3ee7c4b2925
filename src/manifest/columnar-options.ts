// The manifest's `columnar_options:` (a columnar table's or partition's) and the model's, both ways.
import type { ColumnarOptions } from '../model/types.js';
import type { ManifestTable } from './schema.js';

/** The manifest key of each columnar option (`columnar_options:`), both ways: resolve and introspect. */
export const COLUMNAR_OPTION_KEY = {
  compression: 'compression',
  compressionLevel: 'compression_level',
  stripeRowLimit: 'stripe_row_limit',
  chunkGroupRowLimit: 'chunk_group_row_limit',
} as const satisfies { readonly [K in keyof Required<ColumnarOptions>]: string };

/** The model's columnar options of a manifest's `columnar_options:`. */
export const columnarOptionsOf = (o: NonNullable<ManifestTable['columnar_options']>): ColumnarOptions =>
  Object.fromEntries(
    (Object.keys(COLUMNAR_OPTION_KEY) as (keyof ColumnarOptions)[]).flatMap((k) =>
      o[COLUMNAR_OPTION_KEY[k]] !== undefined ? [[k, o[COLUMNAR_OPTION_KEY[k]]]] : [],
    ),
  ) as ColumnarOptions;
