// Where an object of the sql: files was declared (`file:line:col`, its `source`), as a Problem's fields.
import type { Problem } from '../errors.js';

/** A Problem's file, line and col from a `file:line:col` source, or nothing. */
export function sourceLocation(source: string | undefined): Pick<Problem, 'file' | 'line' | 'col'> {
  const at = /^(.*):(\d+):(\d+)$/.exec(source ?? '');
  return at ? { file: at[1]!, line: Number(at[2]), col: Number(at[3]) } : {};
}
