// The tests' oracle for the catalog document: every answer of the catalog query a test reads
// through here is held to the zod schema (model/catalog-schema.ts), and the tool's own reading of
// it (model/catalog-doc.ts) must give what the schema's parse gives, keys in the same order.
import pg from 'pg';
import { expect } from 'vitest';
import type { Queryable } from '../../src/db/connect.js';
import { queryCatalog } from '../../src/introspect/catalog-query.js';
import { validateCatalog } from '../../src/introspect/read.js';
import { catalogDoc, type CatalogAnswerDoc, type CatalogDoc } from '../../src/model/catalog-doc.js';
import { catalogSchema } from '../../src/model/catalog-schema.js';

/** Fails the test unless zod accepts the answer and the tool reads it exactly as zod parses it. */
export function expectCatalogAsSchema(raw: unknown): void {
  const want = catalogSchema.safeParse(structuredClone(raw));
  if (!want.success) throw new Error(`the catalog answer is not as its schema says: ${want.error.message}`);
  const got = catalogDoc(structuredClone(raw) as CatalogAnswerDoc);
  expect(got).toStrictEqual(want.data);
  expect(JSON.stringify(got), 'keys in the order of the schema').toBe(JSON.stringify(want.data));
}

/** readCatalog, with the answer held to the oracle first. */
export async function readCatalogChecked(db: Queryable): Promise<{ doc: CatalogDoc; roundTrips: number }> {
  const answer = await queryCatalog(db);
  expectCatalogAsSchema(answer.raw);
  return validateCatalog(db, answer);
}

/** The oracle on the database at `url` (one catalog query). */
export async function checkCatalogAt(url: string, password?: string): Promise<void> {
  const c = new pg.Client({ connectionString: url, ...(password !== undefined ? { password } : {}) });
  await c.connect();
  try {
    expectCatalogAsSchema((await queryCatalog(c)).raw);
  } finally {
    await c.end();
  }
}
