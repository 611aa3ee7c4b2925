// The `sql:` files: their objects (objects/from-sql.ts), and their functions and procedures, each
// of which becomes a routine of the model. A routine the manifest declares by signature only
// (routines: … signature:) takes its body from there and keeps its distribution; any other is a
// local routine (stays on the coordinator).
import { routineId, type Routine, type SqlObject } from '../model/types.js';
import type { PrivilegeOp } from '../objects/privileges.js';
import { objectsFromSql, type RoutineStatement, type SqlFile, type SqlFileProblem } from '../objects/from-sql.js';
import { ParseFailure, typeFromNode, type Node } from '../sql/pg-parse.js';
import type { ProblemList } from './problems.js';
import type { ResolveIo } from './resolve-context.js';
import type { Manifest } from './schema.js';
import { plpgsqlProblem } from '../sql/plpgsql-check.js';
import { identityArgs, parseRoutineSql } from '../sql/routine-parse.js';
import { idOf } from '../model/types.js';

/** 1-based line:col of a byte offset inside a statement that starts at `where`. */
function shift(where: string, text: string, byteOffset: number): string {
  const m = /^(.*):(\d+):(\d+)$/.exec(where)!;
  const before = Buffer.from(text, 'utf8').subarray(0, byteOffset).toString('utf8').split('\n');
  const line = Number(m[2]) + before.length - 1;
  const col = before.length === 1 ? Number(m[3]) + before[0]!.length : before[before.length - 1]!.length + 1;
  return `${m[1]}:${line}:${col}`;
}

/** Adds the SQL files' routines to `routines`; returns the problems, located. */
function sqlFileRoutines(
  statements: readonly RoutineStatement[],
  defaultSchema: string,
  routines: Record<string, Routine>,
): SqlFileProblem[] {
  const problems: SqlFileProblem[] = [];
  for (const s of statements) {
    let parsed;
    try {
      parsed = parseRoutineSql(s.text);
    } catch (e) {
      const f = e as ParseFailure;
      problems.push({
        where: f.position !== undefined ? shift(s.where, s.text, f.position) : s.where,
        code: 'invalid_routine',
        message: f.message,
      });
      continue;
    }
    if (parsed.language === 'plpgsql' && parsed.body !== undefined) {
      const bad = plpgsqlProblem(s.text, parsed.body);
      if (bad) {
        problems.push({
          where: bad.position !== undefined ? shift(s.where, s.text, bad.position) : s.where,
          code: 'invalid_routine_body',
          message: `PL/pgSQL: ${bad.message}`,
        });
        continue;
      }
    }
    const qname = { schema: parsed.schema ?? s.schema ?? defaultSchema, name: parsed.name };
    const argTypes = identityArgs(parsed.args).map((a) => a.type.base);
    const id = routineId(qname, argTypes);
    const declared = routines[id] ?? routines[idOf(qname)];
    const definition = {
      kind: parsed.kind,
      argTypes,
      definition: parsed.statement,
      unqualifiedDefinition: parsed.schema === undefined,
    };
    if (declared?.definition !== undefined) {
      problems.push({
        where: s.where,
        code: 'duplicate_routine',
        message: `${parsed.kind} ${id} is also defined by a file under routines:`,
      });
    } else if (declared) {
      // Declared by signature (or by name) in the manifest: its distribution stays, the body comes from here.
      delete routines[declared.id];
      routines[id] = { ...declared, id, ...definition };
    } else {
      routines[id] = { id, qname, ...definition };
    }
  }
  return problems;
}

/** Reads the objects the `sql:` files declare; each problem is located at its file:line:col. */
export function resolveSqlObjects(
  m: Manifest,
  defaultSchema: string,
  io: ResolveIo,
  problems: ProblemList,
  routines: Record<string, Routine>,
): { objects: Record<string, SqlObject>; schemas: string[]; privilegeOps?: readonly PrivilegeOp[] } {
  const files: SqlFile[] = [];
  m.sql.forEach((entry, i) => {
    for (const rel of io.listSql(entry, ['sql', i]) ?? []) {
      const text = io.readFile(rel, ['sql', i]);
      if (text !== undefined) files.push({ file: rel, text });
    }
  });
  const argTypes = (owa: Node): string =>
    (owa.objargs ?? []).map((t: Node) => typeFromNode(t.TypeName ?? t).sql).join(', ');
  const out = objectsFromSql(files, defaultSchema, argTypes);
  for (const p of [...out.problems, ...sqlFileRoutines(out.routines, defaultSchema, routines)]) {
    const i = m.sql.findIndex((e) => p.where.startsWith(e));
    problems.error(['sql', Math.max(0, i)], p.code, `${p.where}: ${p.message}`);
  }
  const ops = out.privilegeOps;
  return { objects: out.objects, schemas: out.schemas, ...(ops.length > 0 ? { privilegeOps: ops } : {}) };
}
