// The names PostgreSQL gives primary keys and unique constraints declared without one
// (makeObjectName in src/backend/commands/indexcmds.c): `<table>_pkey`, `<table>_<columns>_key`.
import type { Key } from './types.js';

const NAMEDATALEN = 63;

/** Cuts a name to at most `bytes` UTF-8 bytes without splitting a character. */
function clip(name: string, bytes: number): string {
  let out = '';
  for (const ch of name) {
    if (Buffer.byteLength(out + ch) > bytes) break;
    out += ch;
  }
  return out;
}

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
  return kind === 'primary' ? objectName(table, undefined, 'pkey') : objectName(table, key.columns.join('_'), 'key');
}

/** A table's constraint as the plan's facts key it: `<table id> <name>`. */
export const constraintKey = (table: string, name: string): string => `${table} ${name}`;
