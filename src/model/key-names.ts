// The names PostgreSQL gives primary keys, unique constraints and indexes declared without one
// (ChooseIndexName and makeObjectName in src/backend/commands/indexcmds.c): `<table>_pkey`,
// `<table>_<columns>_key`, `<table>_<columns>_idx`; and, when that name is taken, the label with
// a number (`_idx1`, `_idx2`…), as a partition's copies of its parent's indexes get theirs.
import type { IndexLabel, Key } from './types.js';
import { clipName as clip, MAX_IDENTIFIER_BYTES } from '../sql/quote.js';

const NAMEDATALEN = MAX_IDENTIFIER_BYTES;

/** makeObjectName: `name1_name2_label`, the longer of name1 and name2 cut first to fit 63 bytes. */
function objectName(name1: string, name2: string | undefined, label: string): string {
  const avail = NAMEDATALEN - Buffer.byteLength(label) - 1 - (name2 === undefined ? 0 : 1);
  let n1 = Buffer.byteLength(name1);
  let n2 = name2 === undefined ? 0 : Buffer.byteLength(name2);
  while (n1 + n2 > avail) {
    if (n1 > n2) n1--;
    else n2--;
  }
  const parts = [clip(name1, n1), ...(name2 === undefined ? [] : [clip(name2, n2)]), label];
  return parts.join('_');
}

/** The name PostgreSQL gives a key of `table` declared without one (the first choice: no `1` suffix). */
export function defaultKeyName(table: string, kind: 'primary' | 'unique', key: Key): string {
  // ChooseIndexNameAddition joins the column names with `_`; makeObjectName cuts the result.
  return kind === 'primary'
    ? objectName(table, undefined, 'pkey')
    : objectName(table, [...key.columns, ...(key.include ?? [])].join('_'), 'key');
}

/**
 * The name PostgreSQL chooses for an index of `table` (ChooseRelationName): `columns` are the
 * index's column names (an expression's as PostgreSQL names it, `lower`, `expr`), `pass` its
 * attempt (0 the first; n: the label with n, the names before it taken).
 */
export function chosenIndexName(table: string, label: IndexLabel, columns: readonly string[], pass = 0): string {
  const l = pass === 0 ? label : `${label}${pass}`;
  return label === 'pkey' ? objectName(table, undefined, l) : objectName(table, columns.join('_'), l);
}

/** Whether `name` is one PostgreSQL chose for such an index (a first choice, or a later one). */
export function isChosenIndexName(name: string, table: string, label: IndexLabel, columns: readonly string[]): boolean {
  for (let pass = 0; pass < 100; pass++) if (chosenIndexName(table, label, columns, pass) === name) return true;
  return false;
}

/** The name PostgreSQL would choose now, `taken` saying which names the schema already holds. */
export function nextIndexName(
  table: string,
  label: IndexLabel,
  columns: readonly string[],
  taken: (name: string) => boolean,
): string {
  for (let pass = 0; ; pass++) {
    const name = chosenIndexName(table, label, columns, pass);
    if (!taken(name)) return name;
  }
}

/** A table's constraint as the plan's facts key it: `<table id> <name>`. */
export const constraintKey = (table: string, name: string): string => `${table} ${name}`;
