// Table structure: create missing tables, then columns, keys and indexes of existing ones.
import { sameIndex } from '../../model/same.js';
import { keySteps } from './keys.js';
import { columnCast } from './column-cast.js';
import { identitySteps } from './identity.js';
import { newColumnRewrite } from './new-column-rewrite.js';
import { likelyRenameOf } from './renames.js';
import { referencedColumnProblems } from './referenced-columns.js';
import {
  columnOptionSteps,
  columnStorageSteps as storageSteps,
  storageParameterSteps,
} from './storage-parameter-steps.js';
import { typedTableSteps } from './typed-table.js';
import { freedColumns, inheritedColumnProblem, inheritedColumnSteps, inheritSteps } from './inherits.js';
import { createTableSteps } from './create-table.js';
import type { ClusterModel, Column, Table } from '../../model/types.js';
import { quoteIdent } from '../../sql/quote.js';
import { sameExpression } from '../../sql/normalize.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';

const notNullWithoutDefault = (c: Column): boolean =>
  c.notNull && c.default === undefined && c.identity === undefined && c.generated === undefined && !c.type.serial;

/** Rows on the coordinator by the planner's estimate (a distributed table's are on the workers: not known here). */
const holdsRows = (a: Table): boolean =>
  a.size !== undefined && (a.size.rows > 0 || a.size.bytes > 0) && a.distribution.kind === 'local';

function columnSteps(
  t: Table,
  a: Table,
  models: { desired: ClusterModel; actual: ClusterModel },
  prune: boolean,
  problems: DiffProblem[],
): Step[] {
  const steps: Step[] = [];
  // A column from a parent by INHERITS changes with it (ALTER TABLE on a parent reaches its
  // children); one that stops being inherited (NO INHERIT) is the table's own from then on.
  const freed = freedColumns(t, a, models.actual);
  const own = (c: Column): boolean => !c.inherited || freed.has(c.name);
  const have = new Map((a.columns ?? []).map((c) => [c.name, c]));
  const distCol = a.distribution.kind === 'hash' ? a.distribution.column : undefined;
  for (const c of t.columns ?? []) {
    const ac = have.get(c.name);
    if (c.inherited || (ac && !own(ac))) {
      const p = inheritedColumnProblem(t, a, c, ac, models.desired);
      if (p) problems.push(p);
      continue;
    }
    if (!ac) {
      // "cannot execute ADD COLUMN commands involving identity columns when metadata is synchronized to workers"
      if (c.identity !== undefined && a.distribution.kind !== 'local') {
        problems.push({
          code: 'citus_unsupported_alter',
          object: `${t.id}.${quoteIdent(c.name)}`,
          message:
            'is a new identity column: Citus cannot add one to a distributed or reference table; use a bigint column with a sequence default',
        });
      } else if (notNullWithoutDefault(c) && holdsRows(a)) {
        const former = likelyRenameOf(t, a, c);
        problems.push({
          code: 'not_null_column_on_rows',
          object: `${t.id}.${quoteIdent(c.name)}`,
          message: `is a new NOT NULL column without a default, and the table holds rows (~${a.size!.rows} by the planner's estimate): PostgreSQL refuses it ("column … contains null values"); ${former !== undefined ? `it looks like a rename of ${quoteIdent(former)}: declare renamed_from: ${former} to keep its values; or ` : ''}give it a default, or add it nullable, fill it, then declare not_null`,
        });
      } else {
        const rewrites = newColumnRewrite(c, models.desired, models.actual);
        const former = likelyRenameOf(t, a, c);
        steps.push(
          {
            kind: 'add_column',
            table: t.qname,
            column: c,
            ...(rewrites !== undefined ? { rewrites } : {}),
            ...(former !== undefined ? { likelyRenameOf: former } : {}),
          },
          ...storageSteps(t, [c]),
        );
      }
      continue;
    }
    const collationDiffers =
      (c.collation ?? '') !== (ac.collation ?? '') || (c.collationSchema ?? '') !== (ac.collationSchema ?? '');
    let defaultSet = false;
    if (c.type.sql !== ac.type.sql || collationDiffers) {
      if (c.type.base === ac.type.base && c.type.serial !== ac.type.serial) {
        problems.push({
          code: 'serial_change',
          object: `${t.id}.${c.name}`,
          message: `is ${ac.type.sql} in the cluster and ${c.type.sql} in the manifest; switching a column to or from serial is not planned`,
        });
      } else if (c.name === distCol) {
        problems.push({
          code: 'distribution_column_type',
          object: `${t.id}.${c.name}`,
          message: `is the distribution column: Citus cannot change its type (${ac.type.sql} -> ${c.type.sql}); undistribute the table first`,
        });
      } else {
        // serial <-> bigserial: the column's type changes (its sequence's AS type goes with the
        // sequence diff); ALTER COLUMN … TYPE takes no serial spelling.
        const to = c.type.serial && ac.type.serial ? c.type.base : c.type.sql;
        const from = c.type.serial && ac.type.serial ? ac.type.base : ac.type.sql;
        // The manifest's own USING replaces the one the types call for.
        const cast = c.using !== undefined ? { using: c.using } : columnCast(c.name, from, to);
        if ('problem' in cast) {
          problems.push({
            code: 'no_cast',
            object: `${t.id}.${quoteIdent(c.name)}`,
            message: `changes from ${ac.type.sql} to ${c.type.sql}, and ${cast.problem}: add a new column and fill it, or change the type by hand`,
          });
          continue;
        }
        // A default PostgreSQL cannot cast either goes while the type changes, then is set again.
        const reset = cast.using !== undefined && ac.default !== undefined;
        if (reset) defaultSet = true;
        // COLLATE "default" puts back the type's own collation.
        steps.push({
          kind: 'alter_column_type',
          table: t.qname,
          column: c.name,
          type: to,
          from,
          ...(collationDiffers ? { collation: c.collation ?? 'default' } : {}),
          ...(collationDiffers && c.collationSchema ? { collationSchema: c.collationSchema } : {}),
          ...(cast.using !== undefined ? { using: cast.using } : {}),
          ...(reset ? { resetDefault: c.default !== undefined ? { default: c.default } : {} } : {}),
        });
      }
    }
    // NOT NULL goes on before ADD … AS IDENTITY ("column … must be declared NOT NULL before
    // identity can be added") and comes off after DROP IDENTITY (an identity column is NOT NULL).
    const notNull = { kind: 'alter_column_not_null' as const, table: t.qname, column: c.name, notNull: c.notNull };
    if (c.notNull && !ac.notNull) steps.push(notNull);
    steps.push(...generationSteps(t, a, c, ac, problems));
    // Declared without one, a column goes back to its type's own storage.
    const storage = c.storage ?? ac.typeStorage;
    if (c.storage !== ac.storage && storage !== undefined)
      steps.push({ kind: 'alter_column_storage', table: t.qname, column: c.name, storage });
    if (c.statistics !== ac.statistics)
      steps.push({
        kind: 'alter_column_statistics',
        table: t.qname,
        column: c.name,
        statistics: c.statistics ?? -1,
        ...(t.partitionBy !== undefined ? { only: true as const } : {}),
      });
    steps.push(...columnOptionSteps(t, c, ac));
    if (!c.notNull && ac.notNull) steps.push(notNull);
    if (
      !defaultSet &&
      !c.type.serial &&
      c.generated === undefined &&
      ac.generated === undefined &&
      !sameExpression(c.default, ac.default, c.type)
    ) {
      steps.push({
        kind: 'alter_column_default',
        table: t.qname,
        column: c.name,
        ...(c.default !== undefined ? { default: c.default } : {}),
      });
    }
  }
  if (prune) {
    const want = new Set((t.columns ?? []).map((c) => c.name));
    for (const ac of a.columns ?? [])
      if (!want.has(ac.name) && own(ac)) steps.push({ kind: 'drop_column', table: t.qname, column: ac.name });
  }
  return steps;
}

/** Identity and generation expression of an existing column. */
function generationSteps(t: Table, a: Table, c: Column, ac: Column, problems: DiffProblem[]): Step[] {
  const object = `${t.id}.${quoteIdent(c.name)}`;
  const steps: Step[] = [];
  // Citus refuses DROP EXPRESSION (and identity changes: diff/identity.ts) on a distributed or
  // reference table ("alter table command is currently unsupported"): a problem, never a failed apply.
  const onCitus = a.distribution.kind !== 'local';
  const refused = (what: string): void => {
    problems.push({
      code: 'citus_unsupported_alter',
      object,
      message: `${what}: Citus does not support this on a distributed or reference table (undistribute it first, or add a new column)`,
    });
  };
  steps.push(...identitySteps(t, a, c, ac, problems, refused));
  if (c.generated !== undefined && (ac.generated === undefined || !sameExpression(c.generated, ac.generated))) {
    problems.push({
      code: 'generated_change',
      object,
      message:
        ac.generated === undefined
          ? 'is a plain column in the cluster: PostgreSQL 15 cannot make an existing column generated; add a new column instead'
          : `is generated as (${ac.generated}) in the cluster: PostgreSQL 15 cannot change a generation expression; add a new column instead`,
    });
  } else if (c.generated === undefined && ac.generated !== undefined) {
    if (onCitus) refused('stops being generated');
    else steps.push({ kind: 'drop_column_expression', table: t.qname, column: c.name });
  }
  return steps;
}

/** Steps that create or reshape tables (not their distribution). */
export function tableStructureSteps(
  desired: ClusterModel,
  actual: ClusterModel,
  prune: boolean,
  problems: DiffProblem[],
): { steps: Step[]; created: Set<string> } {
  const steps: Step[] = [];
  const created = new Set<string>();
  for (const t of Object.values(desired.tables)) {
    const a = actual.tables[t.id];
    if (!a) {
      if (!t.columns) {
        problems.push({
          code: 'missing_table',
          object: t.id,
          message: `is declared without columns (created elsewhere) but does not exist`,
        });
        continue;
      }
      steps.push(...createTableSteps(t, t.columns, desired));
      // CREATE TABLE takes no STORAGE before PostgreSQL 16: set right after it.
      steps.push(
        ...storageSteps(
          t,
          t.columns.filter((c) => !c.inherited),
        ),
        ...storageParameterSteps(t, undefined, false, problems),
      );
      created.add(t.id);
    } else {
      if (t.columns && Boolean(t.unlogged) !== Boolean(a.unlogged))
        steps.push({ kind: 'alter_table_persistence', table: t.qname, unlogged: Boolean(t.unlogged) });
      if (t.columns) {
        steps.push(...inheritSteps(t, a, desired, actual, problems));
        const cols = columnSteps(t, a, { desired, actual }, prune, problems);
        const typed = typedTableSteps(t, a, cols, problems);
        steps.push(
          ...typed.before,
          ...cols,
          ...typed.after,
          ...storageParameterSteps(
            t,
            a,
            cols.some((c) => c.kind === 'add_column'),
            problems,
          ),
        );
      } else if (a.columns) problems.push(...referencedColumnProblems(t, a)); // offline: columns unknown
      steps.push(...keySteps(t, a, actual, problems));
    }
    steps.push(...inheritedColumnSteps(t, a, { desired, actual }));
    const replaced = new Set<string>();
    for (const ix of t.indexes) {
      const exists = a?.indexes.some((x) => sameIndex(x, ix) && !x.invalid);
      if (exists) continue;
      // One a failed CREATE INDEX CONCURRENTLY left invalid (its UNIQUE not enforced) is dropped
      // and built again: named as declared, or the unnamed one's (t_a_idx, which a new build would
      // not reuse: it would be t_a_idx1, and the invalid one would stay for ever).
      for (const x of a?.indexes ?? []) {
        if (!x.invalid || x.name === undefined || !sameIndex(x, ix) || replaced.has(x.name)) continue;
        steps.push({
          kind: 'drop_index',
          table: t.qname,
          index: { schema: t.qname.schema, name: x.name },
          recreate: true,
          invalid: true,
        });
        replaced.add(x.name);
      }
      // The name is taken by an index of another definition: drop it first.
      if (ix.name !== undefined && !replaced.has(ix.name) && a?.indexes.some((x) => x.name === ix.name)) {
        steps.push({
          kind: 'drop_index',
          table: t.qname,
          index: { schema: t.qname.schema, name: ix.name },
          recreate: true,
        });
        replaced.add(ix.name);
      }
      steps.push({ kind: 'create_index', table: t.qname, index: ix });
    }
    if (a && prune && t.columns) {
      for (const x of a.indexes) {
        const wanted = t.indexes.some((ix) => sameIndex(x, ix));
        if (!wanted && x.name && !replaced.has(x.name))
          steps.push({
            kind: 'drop_index',
            table: t.qname,
            index: { schema: t.qname.schema, name: x.name },
            ...(x.invalid ? { invalid: true } : {}),
          });
      }
    }
  }
  return { steps, created };
}
