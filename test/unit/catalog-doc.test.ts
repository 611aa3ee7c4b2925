// model/catalog-doc.ts reads the catalog query's answer as typed, without a walk of the zod schema;
// here it is held to that schema (model/catalog-schema.ts, the oracle): on answers made from the
// schema's own definition, catalogDoc gives what the schema's parse gives, keys in the same order
// (the per-object hashes read the document as JSON). Real answers: test/support/catalog-oracle.ts,
// on every catalog snapshot of the integration suites, the real schemas and the Citus layouts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogDoc, catalogShapeProblem, type CatalogAnswerDoc } from '../../src/model/catalog-doc.js';
import { expectCatalogAsSchema } from '../support/catalog-oracle.js';
import { catalogSchema } from '../../src/model/catalog-schema.js';
import { valid } from '../support/zod-arbitrary.js';

/** As the server sends it: JSON (no undefined, no extra keys: the query builds every object). */
const asAnswer = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

describe('catalogDoc', () => {
  it('reads answers made from the schema as its parse does', () => {
    fc.assert(
      fc.property(valid(catalogSchema, false), (v) => expectCatalogAsSchema(asAnswer(v))),
      { numRuns: 400, seed: 25 },
    );
  });

  it("puts a table's columns in attnum order, whatever order the query gives them in, and names key columns by number", () => {
    const col = (num: number, name: string) => ({
      num,
      name,
      type: 'int',
      notNull: false,
      default: null,
      identity: '',
      generated: '',
    });
    const raw = {
      server: { versionNum: 150000, version: '15', database: 'd', citus: null },
      schemas: ['public'],
      tables: [
        {
          schema: 'public',
          name: 't',
          columns: [col(3, 'c'), col(1, 'a'), col(2, 'b')],
          constraints: [
            {
              name: 'k',
              type: 'u' as const,
              columns: [3, 1],
              refSchema: null,
              refTable: null,
              refColumns: null,
              onDelete: 'a',
              onUpdate: 'a',
            },
          ],
          indexes: [{ name: 'i', unique: false, method: 'btree', columns: [0, 2], simple: false }],
        },
      ],
      sequences: [],
      routines: [],
      nodes: [],
    };
    expectCatalogAsSchema(raw);
    const doc = catalogDoc(structuredClone(raw));
    expect(doc.tables[0]!.columns.map((c) => c.name)).toEqual(['a', 'b', 'c']);
    expect(doc.tables[0]!.constraints[0]!.columns).toEqual(['c', 'a']);
    expect(doc.tables[0]!.indexes[0]!.columns).toEqual(['b']);
  });

  it('fills in what an older answer lacks, and reads a null owner or event trigger list as absent', () => {
    const routine = {
      schema: 'app',
      name: 'f',
      kind: 'f' as const,
      language: 'sql',
      argTypes: [],
      result: 'int',
      definition: null,
      owner: null,
      distribution: null,
    };
    const raw: CatalogAnswerDoc = {
      server: { versionNum: 150000, version: '15', database: 'd', citus: null },
      schemas: ['app'],
      tables: [],
      sequences: [],
      routines: [routine],
      eventTriggers: null,
      nodes: [],
    };
    expectCatalogAsSchema(raw);
    const doc = catalogDoc(structuredClone(raw));
    expect('owner' in doc.routines[0]! || 'eventTriggers' in doc).toBe(false);
    expect([doc.objects, doc.acls, doc.notManaged, doc.objectState]).toEqual([[], [], [], false]);
  });

  it('says where an answer is not the query’s shape at all', () => {
    const ok = { server: {}, schemas: [], tables: [], sequences: [], routines: [], nodes: [] };
    expect(catalogShapeProblem(ok)).toBeUndefined();
    expect([null, [], 'x', 1].map(catalogShapeProblem)).toEqual(Array(4).fill('(the answer)'));
    expect(catalogShapeProblem({ ...ok, server: null })).toBe('server');
    expect(catalogShapeProblem({ ...ok, tables: {} })).toBe('tables');
    expect(catalogShapeProblem({ ...ok, nodes: undefined })).toBe('nodes');
  });
});
