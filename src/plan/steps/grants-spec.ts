// Step records of privileges the model holds outside SQL-defined objects: what default
// privileges gave an object the plan creates (taken back, or PUBLIC's given back).
import type { Phase, StepOf } from './steps.js';
import { PLAIN, type StepSpecs } from './spec-record.js';

// A revoke of what defaults give runs in its object's phase, after its CREATE (the same object,
// so the same chain: steps/step-names.ts): views and materialized views are created with the objects.
const REVOKE_PHASE: Readonly<Record<StepOf<'revoke_default_privileges'>['target'], Phase>> = {
  SCHEMA: 'schemas',
  TYPE: 'types',
  SEQUENCE: 'sequences',
  TABLE: 'objects',
  ROUTINE: 'routines',
};

export const GRANT_SPECS: StepSpecs<'revoke_default_privileges'> = {
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
