// The desired side of objects defined by SQL: each statement of the `sql:` files, read with
// PostgreSQL's parser, becomes an object (a view, a type, a trigger, a comment…) with its name,
// the object it belongs to and the names it references. Statements that define no such object
// are refused with their file:line:col, so nothing in a file is silently skipped.
import type { SqlObject } from '../model/types.js';
import { providedNames } from '../model/live-state.js';
import { parseStatements, ParseFailure, strings, type Node } from '../sql/pg-parse.js';
import { quoteIdent, quoteQualified } from '../sql/quote.js';
import { PrivilegeSet } from './privileges.js';
import { withTypeColumnComments } from './comment-parents.js';
import { withoutBaseTypeShells } from './base-type.js';
import type { SqlFile, SqlFileObjects, SqlFileProblem } from './sql-files.js';
import { defineObject } from './aggregate.js';
import { applyDefaultPrivileges, applyGrantStmt } from './privilege-statements.js';
import {
  addEnumLabel,
  byteLocator,
  createdSchema,
  extensionOptions,
  indexConcurrently,
  lineCol,
  listName,
  references,
  relName,
  renamedFromComment,
  splitQualified,
} from './statement-parts.js';
import { sessionSetting } from './session-settings.js';
import { refusedStatement } from './refused-statements.js';
import { relationRef } from '../model/object-ref.js';
import { alterTableObject, type Classified } from './alter-table.js';
import { isMoreTag, moreObject } from './more-objects.js';
import { rangeType } from './range-type.js';
import { alterOwner, tableOwner } from './owner-objects.js';
import { commentTarget } from './comment-target.js';
import { extensionDependency } from './extension-dependency.js';
import { dict } from '../util/dict.js';

export type { SqlFile, SqlFileProblem };
export { renamedFromComment } from './statement-parts.js';

function classify(stmt: Node, defaultSchema: string, argTypes: (n: Node) => string): Classified | string {
  const [tag] = Object.keys(stmt);
  const s = stmt[tag!];
  if (tag === 'AlterObjectDependsStmt' && s.objectType !== 'OBJECT_TRIGGER')
    return extensionDependency(s, defaultSchema, argTypes);
  if (isMoreTag(tag!)) return moreObject(tag, s, defaultSchema);
  switch (tag) {
    case 'ViewStmt':
      return { kind: 'view', name: relName(s.view, defaultSchema) };
    case 'CreateTableAsStmt':
      if (s.objtype !== 'OBJECT_MATVIEW')
        return 'CREATE TABLE AS is not managed here: declare the table in the manifest';
      return { kind: 'materialized view', name: relName(s.into.rel, defaultSchema) };
    case 'CreateEnumStmt':
      return { kind: 'enum', name: listName(strings(s.typeName), defaultSchema) };
    case 'AlterEnumStmt':
      if (s.oldVal !== undefined)
        return 'ALTER TYPE … RENAME VALUE is not supported: write the enum with its new labels';
      return { kind: 'enum', name: listName(strings(s.typeName), defaultSchema), amends: true };
    case 'CompositeTypeStmt':
      return { kind: 'composite type', name: relName(s.typevar, defaultSchema) };
    case 'CreateRangeStmt':
      return rangeType(s, defaultSchema);
    case 'CreateDomainStmt':
      return { kind: 'domain', name: listName(strings(s.domainname), defaultSchema) };
    case 'CreateExtensionStmt':
      // CASCADE creates the extensions this one requires too: more than the plan would list
      // (and the server knows which only when it runs). Each is declared instead.
      if ((s.options ?? []).some((o: Node) => o.DefElem?.defname === 'cascade' && o.DefElem.arg?.Boolean?.boolval))
        return `CREATE EXTENSION … CASCADE is refused: it would also create the extensions ${quoteIdent(s.extname)} requires, which the plan would not list; declare each of them with a CREATE EXTENSION of its own before this one, and drop CASCADE`;
      return { kind: 'extension', name: quoteIdent(s.extname) };
    case 'IndexStmt': {
      if (!s.idxname) return 'an index needs a name here, so later plans can find it: CREATE INDEX name ON …';
      const table = relName(s.relation, defaultSchema);
      return {
        kind: 'index',
        name: quoteQualified({ schema: s.relation.schemaname ?? defaultSchema, name: s.idxname }),
        parent: relationRef(table),
        // Built concurrently after COMMIT when its table holds rows (plan/online.ts); in the
        // transaction, as CREATE INDEX, when the plan creates the table.
        ...(s.concurrent ? { online: true } : {}),
      };
    }
    case 'CreateTrigStmt': {
      const table = relName(s.relation, defaultSchema);
      return { kind: 'trigger', name: `${table}.${quoteIdent(s.trigname)}`, parent: relationRef(table) };
    }
    case 'RuleStmt': {
      const table = relName(s.relation, defaultSchema);
      return { kind: 'rule', name: `${table}.${quoteIdent(s.rulename)}`, parent: relationRef(table) };
    }
    case 'CreatePolicyStmt': {
      const table = relName(s.table, defaultSchema);
      return { kind: 'policy', name: `${table}.${quoteIdent(s.policy_name)}`, parent: relationRef(table) };
    }
    case 'CommentStmt': {
      const t = commentTarget(s, defaultSchema, argTypes);
      if (typeof t === 'string') return t;
      return {
        kind: 'comment',
        name: `on ${t.keyword.toLowerCase()} ${t.target}`,
        ...(t.parent ? { parent: t.parent } : {}),
        ...(t.needs ? { needs: t.needs } : {}),
      };
    }
    case 'AlterTableStmt':
      return tableOwner(s, defaultSchema) ?? alterTableObject(s, defaultSchema);
    case 'AlterOwnerStmt':
      return alterOwner(s, defaultSchema, argTypes);
    case 'CreateStmt':
      return 'tables are declared under tables: in the manifest';
    case 'DefineStmt':
      return defineObject(s, defaultSchema, argTypes);
    default:
      return refusedStatement(tag!) ?? `${tag!.replace(/Stmt$/, '')} statements are not managed in SQL files`;
  }
}

/** Reads the objects the SQL files declare; `argTypes` renders a routine's identity arguments. */
export function objectsFromSql(
  files: readonly SqlFile[],
  defaultSchema: string,
  argTypes: (objectWithArgs: Node) => string,
): SqlFileObjects<RoutineStatement> {
  const schemas = new Set<string>();
  const objects = dict<SqlObject>();
  const routines: RoutineStatement[] = [];
  const problems: SqlFileProblem[] = [];
  const privileges = new PrivilegeSet(true);
  for (const f of files) {
    let stmts: Node[];
    try {
      stmts = parseStatements(f.text);
    } catch (e) {
      const p = e as ParseFailure;
      problems.push({
        where: `${f.file}:${p.position !== undefined ? lineCol(f.text, p.position) : '1:1'}`,
        code: 'invalid_sql',
        message: p.message,
      });
      continue;
    }
    const bytes = Buffer.from(f.text, 'utf8');
    const locate = byteLocator(bytes);
    let schema = defaultSchema;
    for (const raw of stmts) {
      const loc: number = raw.stmt_location ?? 0;
      // Only the statement's own bytes are decoded: decoding to the end of the file each time was quadratic.
      const span = (raw.stmt_len ? bytes.subarray(loc, loc + raw.stmt_len) : bytes.subarray(loc)).toString('utf8');
      const text = span.trim();
      // The position of the statement's first token, past leading comments and blank lines.
      const skip = span.length - span.replace(/^(\s|--[^\n]*\n?)*/, '').length;
      const where = `${f.file}:${locate(loc + Buffer.byteLength(span.slice(0, skip)))}`;
      // SET lines carry no object. SET search_path TO s makes s the schema of unqualified names
      // for the rest of the file (as it will be when the statements run); pg_dump's session
      // settings are accepted. Any other SET or SELECT would not run: refused, never skipped.
      const setting = sessionSetting(raw.stmt);
      if (typeof setting === 'string') {
        problems.push({ where, code: 'unsupported_statement', message: setting });
        continue;
      }
      if (setting) {
        if (setting.schema !== undefined) schema = setting.schema || defaultSchema;
        continue;
      }
      // GRANT / REVOKE statements add up, in order, to the privileges of each object and grantee.
      if (raw.stmt.GrantStmt) {
        const why = applyGrantStmt(privileges, raw.stmt.GrantStmt, schema, argTypes, where);
        if (why) problems.push({ where, code: 'unsupported_statement', message: why });
        continue;
      }
      if (raw.stmt.AlterDefaultPrivilegesStmt) {
        const why = applyDefaultPrivileges(privileges, raw.stmt.AlterDefaultPrivilegesStmt, where);
        if (why) problems.push({ where, code: 'unsupported_statement', message: why });
        continue;
      }
      // Functions and procedures are routines (the routine model compares and distributes them).
      if (raw.stmt.CreateFunctionStmt) {
        routines.push({ text, where, file: f.file, offset: loc, schema });
        continue;
      }
      let c: Classified | string;
      try {
        c = classify(raw.stmt, schema, argTypes);
      } catch (e) {
        c = `not understood: ${(e as Error).message}`;
      }
      if (typeof c === 'string') {
        problems.push({ where, code: 'unsupported_statement', message: c });
        continue;
      }
      // ENABLE / DISABLE of a trigger the files do not make there: a partition's clone of its table's.
      if (c.kind === 'trigger' && c.amends && !objects[`trigger ${c.name}`])
        c = { ...c, kind: 'trigger state', amends: false };
      const id = `${c.kind} ${c.name}`;
      const have = objects[id];
      // Kept as CREATE INDEX (what the catalog prints back); online says how to build it.
      const statement = c.statement ?? (c.online ? indexConcurrently(text, false) : text);
      if (statement === undefined) {
        problems.push({
          where,
          code: 'unsupported_statement',
          message:
            'CONCURRENTLY could not be read out of this statement: write CREATE [UNIQUE] INDEX CONCURRENTLY name ON … on its own, without comments inside',
        });
        continue;
      }
      const renamedFrom = renamedFromComment(span.slice(0, skip));
      if (renamedFrom !== undefined && c.kind !== 'view' && c.kind !== 'materialized view') {
        problems.push({
          where,
          code: 'unsupported_statement',
          message: `-- renamed_from: is read above a view or a materialized view only (a ${c.kind} here); tables, columns, indexes and sequences say renamed_from in the manifest`,
        });
        continue;
      }
      const made = createdSchema(raw.stmt, schema);
      if (made !== undefined) schemas.add(made);
      const deps = [...(c.deps ?? references(raw.stmt, schema)), ...(c.needs ?? [])].filter(
        (d) => !providedNames(c.kind, c.name).includes(d),
      );
      if (c.amends) {
        if (!have) {
          problems.push({ where, code: 'amends_undeclared', message: `${id} is not declared before this statement` });
          continue;
        }
        const labels = c.kind === 'enum' ? addEnumLabel(have.labels ?? [], raw.stmt.AlterEnumStmt) : have.labels;
        if (typeof labels === 'string') {
          problems.push({ where, code: 'invalid_enum_change', message: labels });
          continue;
        }
        objects[id] = {
          ...have,
          create: c.kind === 'enum' ? have.create : [...have.create, text],
          deps: [...new Set([...have.deps, ...deps])],
          ...(labels ? { labels } : {}),
        };
        continue;
      }
      if (have) {
        if (c.kind === 'row level security') {
          objects[id] = { ...have, create: [...have.create, text] };
          continue;
        }
        problems.push({
          where,
          code: 'duplicate_object',
          message: `${id} is declared twice (first at ${have.source})`,
        });
        continue;
      }
      objects[id] = {
        id,
        kind: c.kind,
        name: c.name,
        ...(c.parent ? { parent: c.parent } : {}),
        create: [statement],
        provides: providedNames(c.kind, c.name),
        deps: [...new Set([...deps, ...(c.parent ? [c.parent] : [])])],
        ...(c.kind === 'enum' ? { labels: strings(raw.stmt.CreateEnumStmt.vals) } : {}),
        ...(c.kind === 'extension' ? { extension: extensionOptions(raw.stmt.CreateExtensionStmt) } : {}),
        ...(c.constraint ? { constraint: c.constraint } : {}),
        source: where,
        searchPath: schema,
        ...(renamedFrom !== undefined ? { renamedFrom } : {}),
        ...(c.online ? { online: true } : {}),
      };
    }
  }
  // Enums amended by ADD VALUE are created with all their labels at once.
  for (const o of Object.values(objects)) {
    if (o.kind === 'enum' && o.labels) {
      const [schema, name] = splitQualified(o.name);
      objects[o.id] = {
        ...o,
        create: [
          `CREATE TYPE ${quoteQualified({ schema, name })} AS ENUM (${o.labels.map((l) => `'${l.replace(/'/g, "''")}'`).join(', ')})`,
        ],
      };
    }
  }
  withTypeColumnComments(objects);
  withoutBaseTypeShells(objects);
  for (const p of privileges.objects()) objects[p.id] = { ...p, searchPath: defaultSchema };
  return { objects, routines, schemas: [...schemas, ...privileges.schemas], problems, privilegeOps: privileges.ops };
}

/** A CREATE FUNCTION / PROCEDURE statement of an SQL file, for the routine model. */
export interface RoutineStatement {
  readonly text: string;
  readonly where: string; // file:line:col of the statement
  readonly file: string;
  readonly offset: number; // byte offset of the statement in the file
  readonly schema: string; // what an unqualified name means there
}
