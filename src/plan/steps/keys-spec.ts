// Step records of a table's keys and constraints: primary keys, unique constraints, foreign keys.
import { quoteIdent, type QualifiedName } from '../../sql/quote.js';
import type { ForeignKey, Key } from '../../model/types.js';
import { PLAIN, type StepSpecs } from './spec-record.js';
import { cols, deferralSql, keySql, q } from './sql-parts.js';
import { tableRef } from '../../model/object-ref.js';
import type { KeyStep } from './keys.js';

type KeyKind = Exclude<KeyStep['kind'], 'attach_partition' | 'detach_partition'> | 'validate_constraint';

function fkSql(fk: ForeignKey, ref: QualifiedName): string {
  return [
    fk.name ? `CONSTRAINT ${quoteIdent(fk.name)} ` : '',
    `FOREIGN KEY (${cols(fk.columns)}) REFERENCES ${q(ref)} (${cols(fk.refColumns)})`,
    fk.matchFull ? ' MATCH FULL' : '',
    fk.onDelete ? ` ON DELETE ${fk.onDelete.toUpperCase()}` : '',
    fk.onUpdate ? ` ON UPDATE ${fk.onUpdate.toUpperCase()}` : '',
    deferralSql(fk),
    fk.notValid ? ' NOT VALID' : '',
  ].join('');
}

const keyName = (k: Key): string => (k.name !== undefined ? `${quoteIdent(k.name)} ` : '');
const onTable = { ...PLAIN, object: (s: { readonly table: QualifiedName }) => tableRef(s.table) } as const;

const DROP_WHY = {
  changed: '(to add it again as the manifest declares it)',
  dependent: '(it references a key this plan replaces; added again after it)',
  pruned: '(prune: the manifest does not declare it)',
  invalid: '(its index is invalid, so it is not enforced: added again, which builds it)',
} as const;

export const KEY_SPECS: StepSpecs<KeyKind> = {
  add_primary_key: {
    ...onTable,
    phase: () => 'tables',
    hazards: () => [],
    sql: (s) => [`ALTER TABLE ${q(s.table)} ADD ${keySql('PRIMARY KEY', s.key)}`],
    summary: (s) => `add primary key ${keyName(s.key)}(${cols(s.key.columns)}) to ${q(s.table)}`,
  },
  add_unique: {
    ...onTable,
    phase: () => 'tables',
    hazards: () => [],
    sql: (s) => [`ALTER TABLE ${q(s.table)} ADD ${keySql('UNIQUE', s.key)}`],
    summary: (s) => `add unique ${keyName(s.key)}(${cols(s.key.columns)}) to ${q(s.table)}`,
  },
  rename_key: {
    ...onTable,
    phase: () => 'tables',
    hazards: () => [],
    // Through the key's index, which renames its constraint too: Citus 13 refuses ALTER TABLE …
    // RENAME CONSTRAINT on its tables ("currently unsupported") but propagates ALTER INDEX … RENAME.
    sql: (s) => [`ALTER INDEX ${q({ schema: s.table.schema, name: s.from })} RENAME TO ${quoteIdent(s.to)}`],
    summary: (s) => `rename key constraint ${quoteIdent(s.from)} of ${q(s.table)} to ${quoteIdent(s.to)}`,
  },
  rename_constraint: {
    ...onTable,
    // Before the table is distributed: Citus refuses RENAME CONSTRAINT on its tables.
    phase: () => 'tables',
    hazards: () => [],
    sql: (s) => [`ALTER TABLE ${q(s.table)} RENAME CONSTRAINT ${quoteIdent(s.from)} TO ${quoteIdent(s.to)}`],
    summary: (s) => `rename foreign key ${quoteIdent(s.from)} of ${q(s.table)} to ${quoteIdent(s.to)}`,
  },
  add_foreign_key: {
    ...onTable,
    phase: () => 'foreign_keys',
    hazards: () => [],
    sql: (s) => [`ALTER TABLE ${q(s.table)} ADD ${fkSql(s.notValid ? { ...s.fk, notValid: true } : s.fk, s.refTable)}`],
    summary: (s) =>
      `add foreign key ${q(s.table)} (${cols(s.fk.columns)}) -> ${q(s.refTable)} (${cols(s.fk.refColumns)})${deferralSql(s.fk)}${s.notValid ? ' NOT VALID (validated after COMMIT)' : s.fk.notValid ? ' NOT VALID' : ''}`,
  },
  validate_constraint: {
    ...onTable,
    phase: () => 'foreign_keys',
    hazards: () => [],
    sql: (s) => [`ALTER TABLE ${q(s.table)} VALIDATE CONSTRAINT ${quoteIdent(s.name)}`],
    summary: (s) => `validate constraint ${quoteIdent(s.name)} of ${q(s.table)} (checks existing rows; writes go on)`,
  },
  replace_constraint: {
    ...onTable,
    phase: (s) => (s.constraint.kind === 'foreign key' ? 'foreign_keys' : 'tables'),
    hazards: () => [],
    sql: (s) => {
      const c = s.constraint;
      const add =
        c.kind === 'foreign key'
          ? fkSql({ ...c.fk, name: s.name }, c.refTable)
          : keySql(c.kind === 'primary key' ? 'PRIMARY KEY' : 'UNIQUE', { ...c.key, name: s.name });
      return [
        `ALTER TABLE ${q(s.table)} DROP CONSTRAINT ${quoteIdent(s.name)}`,
        `ALTER TABLE ${q(s.table)} ADD ${add}`,
      ];
    },
    summary: (s) => {
      const d = s.constraint.kind === 'foreign key' ? s.constraint.fk : s.constraint.key;
      const nulls =
        s.constraint.kind === 'foreign key'
          ? ''
          : s.constraint.key.nullsNotDistinct
            ? 'NULLS NOT DISTINCT, '
            : 'NULLS DISTINCT, ';
      return `drop ${s.constraint.kind} ${quoteIdent(s.name)} of ${q(s.table)} and add it again as ${s.constraint.kind === 'unique' ? nulls : ''}${deferralSql(d).trim() || 'NOT DEFERRABLE'}`;
    },
  },
  drop_constraint: {
    ...onTable,
    phase: () => 'drop_objects',
    hazards: () => [],
    sql: (s) => [`ALTER TABLE ${q(s.table)} DROP CONSTRAINT ${quoteIdent(s.name)}`],
    summary: (s) => `drop ${s.constraint} ${quoteIdent(s.name)} of ${q(s.table)} ${DROP_WHY[s.reason]}`,
  },
};
