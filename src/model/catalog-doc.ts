// The catalog query's answer (introspect/catalog-sql.ts writes the query) as the document the model
// and the planner read. The answer is the tool's own query's: typed, not walked by a validator
// (as kysely's and pg-schema-diff's introspectors read their rows). Its types are the zod schema's
// in catalog-schema.ts, which the tests hold every answer they read to (catalog-doc.test.ts).
import type { z } from 'zod';
import type { catalogSchema } from './catalog-schema.js';
import { absentWhenNull, columnNumbersToNames } from './catalog-transforms.js';

/** The document: the answer with its key columns named, defaults filled in and null keys absent. */
export type CatalogDoc = z.output<typeof catalogSchema>;
export type CatalogNode = CatalogDoc['nodes'][number];
/** The answer as the query returns it. */
export type CatalogAnswerDoc = z.input<typeof catalogSchema>;

const ARRAYS = ['schemas', 'tables', 'sequences', 'routines', 'nodes'] as const;

/**
 * What in an answer is not the query's shape at all (a server that answered something else): the
 * path of the first such key, or undefined. The rows themselves are not walked.
 */
export function catalogShapeProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return '(the answer)';
  const doc = raw as Record<string, unknown>;
  if (typeof doc.server !== 'object' || doc.server === null) return 'server';
  return ARRAYS.find((k) => !Array.isArray(doc[k]));
}

/**
 * The document from the query's answer, key for key as catalogSchema's parse gives it (keys in
 * its order: the per-object hashes read the document as JSON). Takes over the answer's objects.
 */
export function catalogDoc(raw: CatalogAnswerDoc): CatalogDoc {
  const ownerAbsent = absentWhenNull('owner');
  const doc = {
    server: raw.server,
    schemas: raw.schemas,
    distributedSchemas: raw.distributedSchemas ?? [],
    moves: raw.moves ?? [],
    jobs: raw.jobs ?? [],
    tables: raw.tables.map(columnNumbersToNames),
    sequences: raw.sequences,
    routines: raw.routines.map(ownerAbsent),
    notManaged: raw.notManaged ?? [],
    objects: (raw.objects ?? []).map(ownerAbsent),
    objectState: raw.objectState === undefined ? false : raw.objectState,
    acls: raw.acls ?? [],
    ...(raw.extensionAcls === undefined ? {} : { extensionAcls: raw.extensionAcls }),
    typeUsers: raw.typeUsers ?? [],
    ...(raw.eventTriggers === undefined || raw.eventTriggers === null ? {} : { eventTriggers: raw.eventTriggers }),
    ...(raw.workerGrantDrift === undefined ? {} : { workerGrantDrift: raw.workerGrantDrift }),
    ...(raw.roles === undefined ? {} : { roles: raw.roles }),
    ...(raw.reader === undefined ? {} : { reader: raw.reader }),
    ...(raw.owners === undefined ? {} : { owners: raw.owners }),
    nodes: raw.nodes,
  };
  return doc;
}
