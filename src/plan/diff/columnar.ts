// Options of columnar tables: a declared option that differs is set; one the manifest leaves out
// is the server's default, and a value other than that is named as unmanaged (reset with prune).
// A table created or rewritten to columnar by this plan starts from the defaults. A columnar
// partition's own options are compared the same way. Pure.
import type { ColumnarOptions, Table } from '../../model/types.js';
import { COLUMNAR_OPTION } from '../steps/storage-spec.js';
import type { Step } from '../steps/steps.js';

const KEYS = Object.keys(COLUMNAR_OPTION) as (keyof ColumnarOptions)[];

/** What holds columnar options: a table, or a partition as a table of its own. */
type Columnar = Pick<Table, 'id' | 'qname' | 'accessMethod' | 'columnarOptions' | 'columns'>;

/**
 * The step (if any) that gives a declared columnar table its options, and what it leaves alone.
 * `a` is the table in the cluster (undefined when this plan creates it); `defaults` the server's
 * (undefined offline: then every declared option is set).
 */
export function columnarOptionSteps(
  t: Columnar,
  a: Columnar | undefined,
  defaults: ColumnarOptions | undefined,
  prune: boolean,
): { steps: Step[]; unmanaged: string[] } {
  if (t.accessMethod !== 'columnar') return { steps: [], unmanaged: [] };
  const want = t.columnarOptions ?? {};
  // What the table has once this plan's earlier steps ran (a new or rewritten table: the defaults).
  const have: ColumnarOptions | undefined = a?.accessMethod === 'columnar' ? a.columnarOptions : defaults;
  const set: Record<string, string | number> = {};
  const reset: (keyof ColumnarOptions)[] = [];
  const unmanaged: string[] = [];
  for (const k of KEYS) {
    const w = want[k];
    const h = have?.[k];
    if (w !== undefined) {
      if (w !== h) set[k] = w;
    } else if (t.columns !== undefined && h !== undefined && defaults && h !== defaults[k]) {
      // A table declared without columns is described by the cluster: only what it names is compared.
      if (prune) reset.push(k);
      else unmanaged.push(`columnar option ${COLUMNAR_OPTION[k]} = ${h} of table ${t.id}`);
    }
  }
  const steps: Step[] =
    Object.keys(set).length > 0 || reset.length > 0
      ? [{ kind: 'set_columnar_options', table: t.qname, set: set as ColumnarOptions, reset }]
      : [];
  return { steps, unmanaged };
}
