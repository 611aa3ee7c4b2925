// SQL and summaries of the key step kinds: primary keys, unique constraints and foreign keys
// (spread into render-sql.ts's tables).
import { quoteIdent, quoteQualified as q, type QualifiedName } from '../sql/quote.js';
import type { Deferral, ForeignKey, Key } from '../model/types.js';
import type { StepOf } from './steps.js';

type KeyKind =
  | 'add_foreign_key'
  | 'add_primary_key'
  | 'add_unique'
  | 'rename_key'
  | 'replace_constraint'
  | 'drop_constraint'
  | 'attach_partition'
  | 'detach_partition';

const cols = (names: readonly string[]): string => names.map(quoteIdent).join(', ');

/** ` DEFERRABLE`, ` DEFERRABLE INITIALLY DEFERRED` or nothing (NOT DEFERRABLE, PostgreSQL's default). */
const deferralSql = (d: Deferral): string =>
  d.initiallyDeferred ? ' DEFERRABLE INITIALLY DEFERRED' : d.deferrable ? ' DEFERRABLE' : '';

function fkSql(fk: ForeignKey, ref: QualifiedName): string {
  return [
    fk.name ? `CONSTRAINT ${quoteIdent(fk.name)} ` : '',
    `FOREIGN KEY (${cols(fk.columns)}) REFERENCES ${q(ref)} (${cols(fk.refColumns)})`,
    fk.onDelete ? ` ON DELETE ${fk.onDelete.toUpperCase()}` : '',
    fk.onUpdate ? ` ON UPDATE ${fk.onUpdate.toUpperCase()}` : '',
    deferralSql(fk),
    fk.notValid ? ' NOT VALID' : '',
  ].join('');
}

/** `[CONSTRAINT name] PRIMARY KEY (a, b) [DEFERRABLE …]`: the declared name, else PostgreSQL's default. */
export function keySql(what: 'PRIMARY KEY' | 'UNIQUE', k: Key): string {
  return `${k.name !== undefined ? `CONSTRAINT ${quoteIdent(k.name)} ` : ''}${what} (${cols(k.columns)})${deferralSql(k)}`;
}
const keyName = (k: Key): string => (k.name !== undefined ? `${quoteIdent(k.name)} ` : '');
const partitionName = (s: StepOf<'attach_partition'>) => ({ schema: s.table.schema, name: s.partition.name });

export const RENDER_KEYS: { readonly [K in KeyKind]: (s: StepOf<K>) => readonly string[] } = {
  add_foreign_key: (s) => [
    `ALTER TABLE ${q(s.table)} ADD ${fkSql(s.notValid ? { ...s.fk, notValid: true } : s.fk, s.refTable)}`,
  ],
  add_primary_key: (s) => [`ALTER TABLE ${q(s.table)} ADD ${keySql('PRIMARY KEY', s.key)}`],
  add_unique: (s) => [`ALTER TABLE ${q(s.table)} ADD ${keySql('UNIQUE', s.key)}`],
  // Through the key's index, which renames its constraint too: Citus 13 refuses ALTER TABLE …
  // RENAME CONSTRAINT on its tables ("currently unsupported") but propagates ALTER INDEX … RENAME.
  rename_key: (s) => [`ALTER INDEX ${q({ schema: s.table.schema, name: s.from })} RENAME TO ${quoteIdent(s.to)}`],
  replace_constraint: (s) => {
    const c = s.constraint;
    const add =
      c.kind === 'foreign key'
        ? fkSql({ ...c.fk, name: s.name }, c.refTable)
        : keySql(c.kind === 'primary key' ? 'PRIMARY KEY' : 'UNIQUE', { ...c.key, name: s.name });
    return [`ALTER TABLE ${q(s.table)} DROP CONSTRAINT ${quoteIdent(s.name)}`, `ALTER TABLE ${q(s.table)} ADD ${add}`];
  },
  drop_constraint: (s) => [`ALTER TABLE ${q(s.table)} DROP CONSTRAINT ${quoteIdent(s.name)}`],
  attach_partition: (s) => [`ALTER TABLE ${q(s.table)} ATTACH PARTITION ${q(partitionName(s))} ${s.partition.bound}`],
  detach_partition: (s) => [`ALTER TABLE ${q(s.table)} DETACH PARTITION ${q(s.partition)}`],
};

export const SUMMARY_KEYS: { readonly [K in KeyKind]: (s: StepOf<K>) => string } = {
  add_foreign_key: (s) =>
    `add foreign key ${q(s.table)} (${cols(s.fk.columns)}) -> ${q(s.refTable)} (${cols(s.fk.refColumns)})${deferralSql(s.fk)}${s.notValid ? ' NOT VALID (validated after COMMIT)' : s.fk.notValid ? ' NOT VALID' : ''}`,
  add_primary_key: (s) => `add primary key ${keyName(s.key)}(${cols(s.key.columns)}) to ${q(s.table)}`,
  add_unique: (s) => `add unique ${keyName(s.key)}(${cols(s.key.columns)}) to ${q(s.table)}`,
  rename_key: (s) => `rename key constraint ${quoteIdent(s.from)} of ${q(s.table)} to ${quoteIdent(s.to)}`,
  replace_constraint: (s) => {
    const d = s.constraint.kind === 'foreign key' ? s.constraint.fk : s.constraint.key;
    return `drop ${s.constraint.kind} ${quoteIdent(s.name)} of ${q(s.table)} and add it again as ${deferralSql(d).trim() || 'NOT DEFERRABLE'}`;
  },
  drop_constraint: (s) =>
    `drop ${s.constraint} ${quoteIdent(s.name)} of ${q(s.table)} ${s.reason === 'changed' ? '(to add it again as the manifest declares it)' : '(it references a key this plan replaces; added again after it)'}`,
  attach_partition: (s) => `attach table ${q(partitionName(s))} as a partition of ${q(s.table)} ${s.partition.bound}`,
  detach_partition: (s) =>
    `detach partition ${q(s.partition)} from ${q(s.table)} (it stays a table of its own, with its rows)`,
};
