// The options of columnar tables live in citus_columnar's own catalog (columnar.options), which
// exists only with that extension: read in a second round trip, and only when the catalog query
// found a columnar table. Tables and partitions get theirs. The defaults are the server's columnar.* settings (what a new table gets).
import type { Queryable } from '../db/connect.js';
import type { CatalogDoc } from '../model/catalog-doc.js';
import { qn } from './catalog-fragments.js';

// Run with the session's search_path (a plan pins none: it may go through a pooler): every
// function, type and operator is written with its schema.
const COLUMNAR_SQL = `SELECT pg_catalog.json_build_object(
  'options', (SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_object(
      'schema', n.nspname, 'name', c.relname, 'qname', ${qn('n.nspname', 'c.relname')},
      'compression', o.compression::pg_catalog.text, 'compressionLevel', o.compression_level,
      'stripeRowLimit', o.stripe_row_limit, 'chunkGroupRowLimit', o.chunk_group_row_limit)), '[]')
    FROM columnar.options o JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) o.relation::pg_catalog.oid
    JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace),
  'defaults', (SELECT pg_catalog.json_object_agg(s.name, s.setting) FROM pg_catalog.pg_settings s
    WHERE s.name OPERATOR(pg_catalog.=) ANY (ARRAY['columnar.compression', 'columnar.compression_level', 'columnar.stripe_row_limit', 'columnar.chunk_group_row_limit']::pg_catalog.text[]))
) AS state`;

interface Row {
  schema: string;
  name: string;
  qname: string;
  compression: string;
  compressionLevel: number;
  stripeRowLimit: number;
  chunkGroupRowLimit: number;
}
type Options = Omit<Row, 'schema' | 'name' | 'qname'>;

const key = (schema: string, name: string): string => JSON.stringify([schema, name]);

/** The document with each columnar table's options and the server's defaults; 1 round trip or none. */
export async function withColumnarOptions(
  db: Queryable,
  doc: CatalogDoc,
): Promise<{ doc: CatalogDoc; roundTrips: number }> {
  const columnar = (am: string | null | undefined): boolean => am === 'columnar';
  const any = doc.tables.some((t) => columnar(t.am) || (t.partitions ?? []).some((p) => columnar(p.am)));
  if (!doc.server.columnar || !any) return { doc, roundTrips: 0 };
  const r = await db.query<{ state: { options: Row[]; defaults: Record<string, string> | null } }>(COLUMNAR_SQL);
  const { options, defaults: d } = r.rows[0]!.state;
  const byName = new Map(options.map((o) => [key(o.schema, o.name), o]));
  const opts = (o: Row | undefined): Options | undefined =>
    o && {
      compression: o.compression,
      compressionLevel: o.compressionLevel,
      stripeRowLimit: o.stripeRowLimit,
      chunkGroupRowLimit: o.chunkGroupRowLimit,
    };
  const defaults: Options | undefined = d
    ? {
        compression: d['columnar.compression'] ?? '',
        compressionLevel: Number(d['columnar.compression_level']),
        stripeRowLimit: Number(d['columnar.stripe_row_limit']),
        chunkGroupRowLimit: Number(d['columnar.chunk_group_row_limit']),
      }
    : undefined;
  return {
    roundTrips: 1,
    doc: {
      ...doc,
      server: { ...doc.server, ...(defaults ? { columnarDefaults: defaults } : {}) },
      tables: doc.tables.map((t) => {
        const o = columnar(t.am) ? opts(byName.get(key(t.schema, t.name))) : undefined;
        // A columnar partition's own options too (its schema may be another than its table's).
        const partitions = t.partitions?.map((p) => {
          const po = columnar(p.am) ? opts(byName.get(key(p.schema ?? t.schema, p.name))) : undefined;
          return po ? { ...p, columnarOptions: po } : p;
        });
        return { ...t, ...(o ? { columnarOptions: o } : {}), ...(partitions ? { partitions } : {}) };
      }),
    },
  };
}
