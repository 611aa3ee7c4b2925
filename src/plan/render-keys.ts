// SQL and summaries of the key step kinds (spread into render-sql.ts's tables).
import { quoteIdent, quoteQualified as q } from '../sql/quote.js';
import type { Key } from '../model/types.js';
import type { StepOf } from './steps.js';

export const KEY_KINDS = [
  'add_primary_key',
  'add_unique',
  'rename_key',
  'drop_constraint',
  'attach_partition',
] as const;
type KeyKind = (typeof KEY_KINDS)[number];

const cols = (names: readonly string[]): string => names.map(quoteIdent).join(', ');

/** `[CONSTRAINT name] PRIMARY KEY (a, b)`: the declared name, else PostgreSQL's default. */
export function keySql(what: 'PRIMARY KEY' | 'UNIQUE', k: Key): string {
  return `${k.name !== undefined ? `CONSTRAINT ${quoteIdent(k.name)} ` : ''}${what} (${cols(k.columns)})`;
}
const keyName = (k: Key): string => (k.name !== undefined ? `${quoteIdent(k.name)} ` : '');
const partitionName = (s: StepOf<'attach_partition'>) => ({ schema: s.table.schema, name: s.partition.name });

export const RENDER_KEYS: { readonly [K in KeyKind]: (s: StepOf<K>) => readonly string[] } = {
  add_primary_key: (s) => [`ALTER TABLE ${q(s.table)} ADD ${keySql('PRIMARY KEY', s.key)}`],
  add_unique: (s) => [`ALTER TABLE ${q(s.table)} ADD ${keySql('UNIQUE', s.key)}`],
  // Through the key's index, which renames its constraint too: Citus 13 refuses ALTER TABLE …
  // RENAME CONSTRAINT on its tables ("currently unsupported") but propagates ALTER INDEX … RENAME.
  rename_key: (s) => [`ALTER INDEX ${q({ schema: s.table.schema, name: s.from })} RENAME TO ${quoteIdent(s.to)}`],
  drop_constraint: (s) => [`ALTER TABLE ${q(s.table)} DROP CONSTRAINT ${quoteIdent(s.name)}`],
  attach_partition: (s) => [`ALTER TABLE ${q(s.table)} ATTACH PARTITION ${q(partitionName(s))} ${s.partition.bound}`],
};

export const SUMMARY_KEYS: { readonly [K in KeyKind]: (s: StepOf<K>) => string } = {
  add_primary_key: (s) => `add primary key ${keyName(s.key)}(${cols(s.key.columns)}) to ${q(s.table)}`,
  add_unique: (s) => `add unique ${keyName(s.key)}(${cols(s.key.columns)}) to ${q(s.table)}`,
  rename_key: (s) => `rename key constraint ${quoteIdent(s.from)} of ${q(s.table)} to ${quoteIdent(s.to)}`,
  drop_constraint: (s) =>
    `drop ${s.constraint} ${quoteIdent(s.name)} of ${q(s.table)} ${s.reason === 'changed' ? '(to add it again as the manifest declares it)' : '(it references a key this plan replaces; added again after it)'}`,
  attach_partition: (s) => `attach table ${q(partitionName(s))} as a partition of ${q(s.table)} ${s.partition.bound}`,
};
