// What was read from a live cluster, beside its model: the catalog document, hashes that say
// what changed, and what earlier applies recorded. Plain data, shared by introspection, the
// planner and apply, so it lives below all three (catalog-doc.ts beside it: the catalog answer's
// zod schema and type).
import type { Problem } from '../errors.js';
import type { CatalogDoc } from './catalog-doc.js';
import type { ClusterModel, SqlObject } from './types.js';
import {
  collationRef,
  constraintRef,
  indexRef,
  relationRef,
  routineRef,
  statisticsRef,
  typeRef,
  withoutArgs,
  publicationRef,
  serverRef,
} from './object-ref.js';
import { OBJECT_SPEC } from './object-spec.js';

/** What PostgreSQL printed of an object defined by SQL, against the hash of its declared text. */
export interface RecordedObject {
  readonly desired: string;
  readonly actual: string;
}

/** What was read from a live cluster: the model plus what only the live side has. */
export interface LiveState {
  readonly model: ClusterModel;
  readonly doc: CatalogDoc;
  readonly citus: boolean;
  /** sha256 of the catalog document: what a saved plan was computed from. */
  readonly fingerprint: string;
  /** A short hash per object ("table public.t", "routine …", "sequence …", "nodes"), to say what changed. */
  readonly objects: Readonly<Record<string, string>>;
  /** What earlier applies recorded about objects defined by SQL (citus_migrate.object_state). */
  readonly recorded?: Readonly<Record<string, RecordedObject>>;
  /** What the plan should say about the read (the object state this role may not read). */
  readonly warnings?: readonly Problem[];
}

/** The names an object makes, which other objects reference ("relation app.v", "type app.e"). */
export function providedNames(kind: SqlObject['kind'], name: string): string[] {
  switch (OBJECT_SPEC[kind].provides) {
    case 'relation':
      return [relationRef(name)];
    case 'type':
      return [typeRef(name)];
    case 'index':
      return [indexRef(name)];
    case 'constraint':
      // A comment on a constraint names it without its kind (COMMENT ON CONSTRAINT c ON t).
      return [constraintRef(name)];
    case 'collation':
      return [collationRef(name)];
    case 'server':
      return [serverRef(name)];
    case 'publication':
      return [publicationRef(name)];
    case 'statistics':
      return [statisticsRef(name)];
    case 'routine':
      // Called by its name alone, as a routine ("routine public.group_concat").
      return [routineRef(withoutArgs(name))];
    case undefined:
      return [];
  }
}
