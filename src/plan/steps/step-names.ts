// What each step makes, needs and removes, as names ("relation app.t", "type app.d", "routine
// app.f", "sequence app.s"): the vertices' labels of the dependency graph order/order-steps.ts sorts.
// Needs are read from the SQL itself through the parser: a column default that calls a function
// or draws from nextval('s'), a column of a domain, a routine's argument types, the tables and
// functions a SQL-language body reads (PostgreSQL parses it at CREATE while
// check_function_bodies is on), what an SQL-defined object references.
import type { ClusterModel, Column } from '../../model/types.js';
import { providedNames } from '../../model/live-state.js';
import { references } from '../../objects/statement-parts.js';
import { serverCodeRef } from '../../objects/server-code.js';
import { shellOf } from '../../objects/base-type.js';
import { strings, tryParseStatements, type Node } from '../../sql/pg-parse.js';
import { quoteIdent } from '../../sql/quote.js';
import { objectOf, renderSql } from './step-spec.js';
import type { Step, StepOf } from './steps.js';
import {
  indexRef,
  refId,
  relationRef,
  routineRef,
  sequenceRef,
  serverRef,
  tableRef,
  typeRef,
  withoutArgs,
} from '../../model/object-ref.js';

/** What a step needs: `hard` must exist when it runs; `soft` only while check_function_bodies is on. */
export interface Needs {
  readonly hard: readonly string[];
  readonly soft: readonly string[];
}

// Unqualified names are read under this schema, then stand for each schema they may resolve to.
const UNQUALIFIED = ' unqualified ';
const UNQUALIFIED_PREFIX = `${quoteIdent(UNQUALIFIED)}.`;

function expand(names: Iterable<string>, schemas: readonly string[]): string[] {
  const out = new Set<string>();
  for (const n of names) {
    const at = n.indexOf(UNQUALIFIED_PREFIX);
    if (at === -1) out.add(n);
    else
      for (const s of schemas) out.add(`${n.slice(0, at)}${quoteIdent(s)}.${n.slice(at + UNQUALIFIED_PREFIX.length)}`);
  }
  return [...out];
}

/** The sequences nextval('…') / currval / setval name in a parse tree (their argument is a regclass literal). */
function sequenceLiterals(node: Node, out: string[]): void {
  if (Array.isArray(node)) node.forEach((n) => sequenceLiterals(n, out));
  else if (node && typeof node === 'object') {
    const fn = node.FuncCall;
    if (fn && ['nextval', 'currval', 'setval'].includes(strings(fn.funcname).at(-1)!)) {
      const arg = fn.args?.[0];
      const sval: unknown = (arg?.TypeCast?.arg ?? arg)?.A_Const?.sval?.sval;
      if (typeof sval === 'string') {
        // The literal is read the way regclass input reads it: an optionally qualified name.
        const cast = tryParseStatements(`SELECT NULL::${sval}`);
        const names = strings(cast?.[0]?.stmt?.SelectStmt?.targetList?.[0]?.ResTarget?.val?.TypeCast?.typeName?.names);
        if (names.length === 1) out.push(sequenceRef(`${UNQUALIFIED_PREFIX}${quoteIdent(names[0]!)}`));
        else if (names.length === 2) out.push(sequenceRef({ schema: names[0]!, name: names[1]! }));
      }
    }
    Object.values(node).forEach((v) => sequenceLiterals(v, out));
  }
}

/** The names SQL text references, unqualified ones standing for each of `schemas`. */
export function sqlNeeds(sql: readonly string[], schemas: readonly string[]): string[] {
  const out: string[] = [];
  // With no schemas, unqualified names are left for the caller to expand.
  for (const text of sql) {
    const stmts = tryParseStatements(text);
    if (!stmts) continue;
    out.push(...references(stmts, UNQUALIFIED));
    sequenceLiterals(stmts, out);
  }
  return schemas.length === 0 ? out : expand(out, schemas);
}

/** What columns need: their types, and what their defaults and generation expressions call or draw from. */
function columnNeeds(columns: readonly Column[], schema: string): string[] {
  const out: string[] = [];
  for (const c of columns) {
    // A type's canonical name is qualified unless it is unqualified in the manifest.
    out.push(typeRef(c.type.base.includes('.') ? c.type.base : `${UNQUALIFIED_PREFIX}${c.type.base}`));
    // Only an expression with a call can need a routine or a sequence: the rest is not parsed.
    for (const e of [c.default, c.generated]) if (e?.includes('(')) out.push(...sqlNeeds([`SELECT ${e}`], []));
  }
  return expand(out, [schema, 'public']);
}

const routineName = (s: { routine: { schema: string; name: string } }): string => routineRef(s.routine);

function routineNeeds(definition: string, schema: string, self: string): Needs {
  const stmts = tryParseStatements(definition);
  const fn = stmts?.[0]?.stmt?.CreateFunctionStmt;
  if (!fn) return { hard: [], soft: [] };
  const schemas = [schema, 'public'];
  const hard = expand(references(stmts, UNQUALIFIED), schemas).filter((n) => n !== self);
  const language = (fn.options ?? [])
    .map((o: Node) => o.DefElem)
    .find((d: Node) => d?.defname === 'language')
    ?.arg?.String?.sval?.toLowerCase();
  const body: unknown = (fn.options ?? []).map((o: Node) => o.DefElem).find((d: Node) => d?.defname === 'as')?.arg?.List
    ?.items?.[0]?.String?.sval;
  const soft =
    language === 'sql' && typeof body === 'string' ? sqlNeeds([body], schemas).filter((n) => n !== self) : [];
  // A language the files may declare (CREATE LANGUAGE): not one every database has.
  const own = language !== undefined && !['sql', 'plpgsql', 'c', 'internal'].includes(language);
  // C or internal code may take or return a shell type: a base type's functions come after its
  // shell, and its definition after them (diff/base-types.ts).
  const code = language === 'c' || language === 'internal';
  const types = code ? hard.map((n) => (n.startsWith('type ') ? shellOf(n.slice('type '.length)) : n)) : hard;
  return { hard: own ? [...types, serverCodeRef('language', language)] : types, soft };
}

/** A table access method of CREATE ACCESS METHOD (heap is PostgreSQL's, columnar an extension's). */
const accessMethodNeeds = (am: string | undefined): string[] =>
  am === undefined || am === 'heap' || am === 'columnar' ? [] : [serverCodeRef('access method', am)];

/** The names a step needs to exist before it runs. */
export function needsOf(step: Step, desired: ClusterModel): Needs {
  switch (step.kind) {
    case 'create_table':
      return {
        hard: [
          ...columnNeeds(step.columns, step.table.schema),
          ...(step.inherits ?? []).map((p) => relationRef(p)),
          ...(step.ofType !== undefined ? [typeRef(step.ofType)] : []),
          ...accessMethodNeeds(step.accessMethod),
        ],
        soft: [],
      };
    case 'alter_table_inherit':
      return { hard: [relationRef(step.parent)], soft: [] };
    case 'create_partition':
      return {
        hard: [
          ...(step.partition.foreign ? [serverRef(quoteIdent(step.partition.foreign.server))] : []),
          ...accessMethodNeeds(step.partition.accessMethod),
        ],
        soft: [],
      };
    case 'alter_table_access_method':
      return { hard: accessMethodNeeds(step.accessMethod), soft: [] };
    case 'alter_table_of':
      return { hard: step.ofType !== undefined ? [typeRef(step.ofType)] : [], soft: [] };
    case 'add_column':
      return { hard: columnNeeds([step.column], step.table.schema), soft: [] };
    case 'alter_column_default':
    case 'alter_column_type':
      return { hard: sqlNeeds(renderSql(step), [step.table.schema, 'public']), soft: [] };
    case 'create_routine':
    case 'replace_routine':
      return routineNeeds(step.definition, step.searchPath ?? step.routine.schema, routineName(step));
    case 'create_object':
    case 'alter_object': {
      const o = desired.objects[step.object];
      const hard = o ? o.deps.filter((d) => !o.provides.includes(d)) : [];
      // A partition's trigger state: after the table's triggers of that name (the clone comes with them).
      if (step.objectKind !== 'trigger state') return { hard, soft: [] };
      const own = `.${step.object.split('.').pop()!}`;
      const made = Object.values(desired.objects).filter((x) => x.kind === 'trigger' && x.name.endsWith(own));
      return { hard: [...hard, ...made.map((x) => x.id)], soft: [] };
    }
    case 'add_foreign_key':
      return { hard: [relationRef(step.refTable)], soft: [] };
    case 'set_sequence_owner':
      return {
        hard: [sequenceRef(step.sequence), ...(step.owner ? [relationRef(step.owner.table)] : [])],
        soft: [],
      };
    case 'revoke_default_privileges':
      return { hard: revokedNames(step), soft: [] };
    case 'name_partition_index':
      // (after the partition and its parent's index, when this plan makes them)
      return {
        hard: [relationRef(step.partition), indexRef({ schema: step.table.schema, name: step.parent })],
        soft: [],
      };
    default:
      return { hard: [], soft: [] };
  }
}

/** The names of the object a revoke_default_privileges step is on, as its CREATE provides them. */
function revokedNames(step: StepOf<'revoke_default_privileges'>): string[] {
  const prefix = { TABLE: 'relation', SEQUENCE: 'sequence', ROUTINE: 'routine', TYPE: 'type', SCHEMA: 'schema' }[
    step.target
  ];
  // A routine's GRANTs may name it without its arguments (`routine app.f`), as its CREATE provides too.
  return step.target === 'ROUTINE'
    ? [`${prefix} ${step.on}`, `${prefix} ${withoutArgs(step.on)}`]
    : [`${prefix} ${step.on}`];
}

/** The names a step makes. */
export function providesOf(step: Step, desired: ClusterModel): string[] {
  switch (step.kind) {
    case 'create_table':
      return [
        relationRef(step.table),
        typeRef(step.table),
        // A serial or identity column makes its sequence, named <table>_<column>_seq in the table's schema.
        ...step.columns
          .filter((c) => c.type.serial || c.identity !== undefined)
          .map((c) => sequenceRef({ schema: step.table.schema, name: `${step.table.name}_${c.name}_seq` })),
      ];
    case 'create_partition':
      return [relationRef({ schema: step.table.schema, name: step.partition.name })];
    case 'create_sequence':
      return [sequenceRef(step.sequence.id)];
    case 'create_routine':
      return [routineName(step), routineRef(step.signature)];
    // After the CREATE and before whatever uses the object (its declared GRANTs among them).
    case 'revoke_default_privileges':
      return revokedNames(step);
    case 'create_object': {
      const o = desired.objects[step.object];
      return [
        step.object,
        ...(o?.provides ?? providedNames(step.objectKind, step.object.slice(step.objectKind.length + 1))),
      ];
    }
    default:
      return [];
  }
}

/** The names a step removes: what creates the same name again must come after it (a table becoming a view). */
export function removesOf(step: Step): string[] {
  switch (step.kind) {
    case 'drop_table':
      return [relationRef(step.table), typeRef(step.table)];
    case 'drop_sequence':
      return [sequenceRef(step.sequence)];
    case 'drop_routine':
      return [routineRef(step.signature)];
    case 'drop_object':
      return [step.object, ...providedNames(step.objectKind, step.object.slice(step.objectKind.length + 1))];
    default:
      return [];
  }
}

/** The objects whose steps keep their planned order among themselves (a table's create, index, distribution, keys). */
export function chainKeysOf(step: Step): string[] {
  const own = objectOf(step);
  const keys = [refId(own, 'routine') !== undefined ? withoutArgs(own) : own];
  const c = (step as { colocateWith?: unknown }).colocateWith;
  if (c !== undefined && c !== 'none' && typeof c === 'object')
    keys.push(tableRef(c as { schema: string; name: string }));
  if (step.kind === 'add_foreign_key') keys.push(tableRef(step.refTable));
  return keys;
}
