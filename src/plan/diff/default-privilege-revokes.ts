// Default privileges land on what the plan creates: with ALTER DEFAULT PRIVILEGES … GRANT SELECT
// ON TABLES TO r in the database, a table the plan creates gives r SELECT at once, whatever the
// manifest declares for it (a committed apply then "did not converge"). Right after each object
// the plan creates, in the same transaction, what the defaults in force give is taken back; the
// declared GRANTs follow in the objects phase, so it ends with exactly its declared privileges.
// Defaults apply per kind (pg_default_acl.defaclobjtype): ON TABLES to tables, partitions, views
// and materialized views; ON SEQUENCES to sequences, serial and identity ones too; ON FUNCTIONS
// to functions and procedures; ON TYPES to enums, domains and composite types; ON SCHEMAS (never
// IN SCHEMA) to schemas.
import { idOf, type ClusterModel, type SqlObject } from '../../model/types.js';
import { parseQualifiedKey, quoteIdent, quoteQualified, type QualifiedName } from '../../sql/quote.js';
import type { Step, StepOf } from '../steps/steps.js';
import { OBJECT_SPEC } from '../../model/object-spec.js';
import { routineRef, schemaRef } from '../../model/object-ref.js';

type Target = StepOf<'revoke_default_privileges'>['target'];
type Defaults = NonNullable<SqlObject['defaultGrant']>;

const ON: Readonly<Record<Target, Defaults['on']>> = {
  TABLE: 'TABLES',
  SEQUENCE: 'SEQUENCES',
  ROUTINE: 'FUNCTIONS',
  TYPE: 'TYPES',
  SCHEMA: 'SCHEMAS',
};
// PostgreSQL truncates longer names (and picks another on a clash): then the name is not known here.
const MAX_NAME = 63;

/** The sequences a new table's serial and identity columns make, named as PostgreSQL names them. */
function columnSequences(s: StepOf<'create_table'>): QualifiedName[] {
  return s.columns
    .filter((c) => c.type.serial || c.identity !== undefined)
    .map((c) => ({ schema: s.table.schema, name: `${s.table.name}_${c.name}_seq` }))
    .filter((q) => Buffer.byteLength(q.name) <= MAX_NAME);
}

/** revoke_default_privileges steps for the objects `steps` create, of every kind defaults apply to. */
export function defaultPrivilegeRevokes(actual: ClusterModel, steps: readonly Step[]): Step[] {
  // The defaults in force when the CREATE runs are the cluster's: those the plan adds come after it.
  const objects = Object.values(actual.objects);
  const defaults = objects.flatMap((o) => (o.defaultGrant ? [o.defaultGrant] : []));
  const taken = objects.flatMap((o) => (o.defaultRevoke ? [o.defaultRevoke] : []));
  if (defaults.length === 0 && taken.length === 0) return [];
  const out: Step[] = [];
  const add = (target: Target, schema: string | undefined, on: string, object: string): void => {
    // Defaults are per creating role (FOR ROLE): whichever role applies, revoking from a grantee
    // that got nothing (or granting PUBLIC what it has) changes nothing.
    const grantees = [
      ...new Set(
        defaults
          .filter(
            (d) =>
              d.on === ON[target] &&
              (d.inSchema === undefined || (schema !== undefined && d.inSchema === quoteIdent(schema))),
          )
          .map((d) => d.grantee),
      ),
    ];
    // What PostgreSQL gives PUBLIC on a new function or type, unless defaults take it away
    // (ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC): given back, the
    // manifest's own REVOKE … FROM PUBLIC follows.
    const toPublic = [...new Set(taken.filter((d) => d.on === ON[target]).flatMap((d) => d.privileges))];
    if (grantees.length > 0 || toPublic.length > 0)
      out.push({
        kind: 'revoke_default_privileges',
        target,
        on,
        object,
        grantees,
        ...(toPublic.length > 0 ? { grantPublic: toPublic } : {}),
      });
  };
  const relation = (target: 'TABLE' | 'SEQUENCE', q: QualifiedName, what: string): void =>
    add(target, q.schema, quoteQualified(q), `${what} ${idOf(q)}`);
  for (const s of steps) {
    if (s.kind === 'create_table') {
      relation('TABLE', s.table, 'table');
      for (const q of columnSequences(s)) relation('SEQUENCE', q, 'sequence');
    } else if (s.kind === 'create_partition')
      relation('TABLE', { schema: s.table.schema, name: s.partition.name }, 'table');
    else if (s.kind === 'create_sequence') relation('SEQUENCE', s.sequence.qname, 'sequence');
    else if (s.kind === 'create_routine') add('ROUTINE', s.routine.schema, s.signature, routineRef(s.signature));
    else if (s.kind === 'create_schema') add('SCHEMA', undefined, quoteIdent(s.schema), schemaRef(s.schema));
    else if (s.kind === 'create_object') {
      const target = OBJECT_SPEC[s.objectKind].defaultPrivileges;
      const name = s.object.slice(s.objectKind.length + 1);
      if (target) add(target, schemaOf(name), name, s.object);
    }
  }
  return out;
}

/** The schema of a qualified name as objects carry it, quoted (`app.v`, `"My App"."V"`). */
function schemaOf(name: string): string | undefined {
  const q = parseQualifiedKey(name, '');
  return 'error' in q || q.schema === '' ? undefined : q.schema;
}
