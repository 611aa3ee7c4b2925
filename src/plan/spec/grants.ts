// Step records of privileges the model holds outside SQL-defined objects: what default
// privileges gave a table or sequence the plan creates.
import { idOf } from '../../model/types.js';
import { PLAIN, type StepSpecs } from './step-spec.js';
import { q } from './sql-parts.js';

export const GRANT_SPECS: StepSpecs<'revoke_default_privileges'> = {
  revoke_default_privileges: {
    ...PLAIN,
    phase: (s) => (s.target === 'TABLE' ? 'tables' : 'sequences'),
    hazards: () => [],
    object: (s) => `${s.target.toLowerCase()} ${idOf(s.name)}`,
    // Grantees are quoted by the catalog query (quote_ident) or the SQL file's parse, as in every GRANT.
    sql: (s) => [`REVOKE ALL ON ${s.target} ${q(s.name)} FROM ${s.grantees.join(', ')}`],
    summary: (s) =>
      `revoke what default privileges give ${s.grantees.join(', ')} on new ${s.target.toLowerCase()} ${q(s.name)} (the manifest declares its privileges)`,
  },
};
