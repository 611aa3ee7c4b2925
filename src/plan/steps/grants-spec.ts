// Step records of privileges the model holds outside SQL-defined objects: what default
// privileges gave an object the plan creates (taken back, or PUBLIC's given back).
import type { Phase, StepOf } from './steps.js';
import { CITUS, PLAIN, type StepSpecs } from './spec-record.js';
import { onWorkers } from './sql-parts.js';
import { PLAN_SEARCH_PATH } from '../pinned-settings.js';
import { quoteIdent } from '../../sql/quote.js';

// A revoke of what defaults give runs in its object's phase, after its CREATE (the same object,
// so the same chain: steps/step-names.ts): views and materialized views are created with the objects.
const REVOKE_PHASE: Readonly<Record<StepOf<'revoke_default_privileges'>['target'], Phase>> = {
  SCHEMA: 'schemas',
  TYPE: 'types',
  SEQUENCE: 'sequences',
  TABLE: 'objects',
  ROUTINE: 'routines',
};

export const GRANT_SPECS: StepSpecs<'revoke_default_privileges' | 'grant_on_workers'> = {
  // One block per worker, under the object's search_path (its names are qualified anyway).
  grant_on_workers: {
    ...CITUS,
    phase: () => 'after_commit',
    hazards: () => [],
    object: (s) => s.object,
    sql: (s) => [
      onWorkers([
        `SET LOCAL search_path TO ${s.searchPath === undefined ? PLAN_SEARCH_PATH : quoteIdent(s.searchPath)}`,
        ...s.statements,
      ]),
    ],
    summary: (s) =>
      s.differsOn
        ? `${s.object.replace(/^privileges /, '').replace(/ on the workers$/, '')}: as on the coordinator on every worker, after COMMIT (they differ on ${s.differsOn.join(', ')}; Citus does not propagate GRANT / REVOKE on what an extension made, on a language or on pg_catalog's objects)`
        : `${s.object.replace(/^privileges /, '')} on every worker too, after COMMIT (Citus does not propagate GRANT / REVOKE on what an extension made, on a language or on pg_catalog's objects)`,
  },
  revoke_default_privileges: {
    ...PLAIN,
    phase: (s) => (s.object.startsWith('table ') ? 'tables' : REVOKE_PHASE[s.target]),
    hazards: () => [],
    object: (s) => s.object,
    // Grantees are quoted by the catalog query (quote_ident) or the SQL file's parse, as in every GRANT.
    sql: (s) => [
      ...(s.grantees.length > 0 ? [`REVOKE ALL ON ${s.target} ${s.on} FROM ${s.grantees.join(', ')}`] : []),
      ...(s.grantPublic ? [`GRANT ${s.grantPublic.join(', ')} ON ${s.target} ${s.on} TO PUBLIC`] : []),
    ],
    summary: (s) =>
      [
        ...(s.grantees.length > 0 ? [`revoke what default privileges give ${s.grantees.join(', ')}`] : []),
        ...(s.grantPublic ? [`give PUBLIC back the ${s.grantPublic.join(', ')} default privileges take away`] : []),
      ].join(' and ') + ` on new ${s.object} (the manifest declares its privileges)`,
  },
};
