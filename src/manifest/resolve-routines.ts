// Routines: read each file with PostgreSQL's parser, resolve its signature and distribution
// argument, and check it can be colocated with a hash-distributed group.
import { idOf, routineId, type Routine, type Table } from '../model/types.js';
import { identityArgs, parseSignature, type ParsedRoutine, type RoutineArg } from '../sql/routine-parse.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { ResolveIo, TableContext } from './resolve-context.js';
import type { Manifest } from './schema.js';
import { keySignature, readDefinition } from './routine-source.js';
import { canCoerce } from './types-compat.js';
import { warnIntSequences } from './routine-warnings.js';
import { colocatedTable } from './resolve-colocate.js';
import { dict } from '../util/dict.js';

export interface RoutineInfo {
  readonly key: string;
  readonly parsed?: ParsedRoutine;
}

function argIndex(
  spec: string,
  args: readonly { name?: string; type: string }[] | undefined,
  path: Path,
  problems: ProblemList,
  label: string,
  allArgs?: readonly RoutineArg[],
): number | undefined {
  const m = /^\$(\d+)$/.exec(spec);
  if (m) {
    const n = Number(m[1]);
    if (!args) return n - 1; // resolved by name at apply time: Citus checks the range
    if (n < 1 || n > args.length) {
      problems.error(
        path,
        'unknown_argument',
        `distributed_by ${JSON.stringify(spec)} is out of range: ${label} takes ${args.length} argument${args.length === 1 ? '' : 's'}`,
      );
      return undefined;
    }
    return n - 1;
  }
  if (!args || !allArgs) {
    problems.error(
      path,
      'unknown_argument',
      `distributed_by ${JSON.stringify(spec)} names an argument, but without a file the argument names are unknown: use $N`,
    );
    return undefined;
  }
  const i = args.findIndex((a) => a.name === spec);
  if (i === -1) {
    const out = allArgs.find((a) => a.name === spec);
    if (out)
      problems.error(
        path,
        'unknown_argument',
        `distributed_by ${JSON.stringify(spec)} is an ${out.mode.toUpperCase()} argument; the distribution argument must be passed in the call`,
      );
    else
      problems.error(
        path,
        'unknown_argument',
        `distributed_by ${JSON.stringify(spec)} is not an argument of ${label} (arguments: ${args.map((a, j) => a.name ?? `$${j + 1}`).join(', ') || 'none'})`,
      );
    return undefined;
  }
  return i;
}

/** Resolves every routine; returns the model entries and what was read from their files. */
export function resolveRoutines(
  m: Manifest,
  ctx: TableContext,
  io: ResolveIo,
  problems: ProblemList,
): { routines: Record<string, Routine>; info: Record<string, RoutineInfo> } {
  const routines = dict<Routine>();
  const info = dict<RoutineInfo>();
  for (const [key, r] of Object.entries(m.routines)) {
    const path: Path = ['routines', key];
    const keyed = keySignature(key, ctx.defaultSchema, path, problems);
    if (!keyed) continue;
    const q = keyed.q;
    if (r.file !== undefined && r.signature !== undefined) {
      problems.error(
        [...path, 'signature'],
        'file_and_signature',
        "give either file or signature, not both: a file's signature is read from it",
      );
      continue;
    }
    let parsed: ParsedRoutine | undefined;
    let definition: string | undefined;
    let callArgs: { name?: string; type: string }[] | undefined;
    let kind: Routine['kind'];
    if (r.file !== undefined) {
      const def = readDefinition(r, io, path, problems);
      if (!def) continue;
      parsed = def.parsed;
      definition = def.parsed.statement;
      kind = parsed.kind;
      if (parsed.name !== q.name || (parsed.schema !== undefined && parsed.schema !== q.schema)) {
        const made = idOf({ schema: parsed.schema ?? q.schema, name: parsed.name });
        problems.error(
          [...path, 'file'],
          'routine_name_mismatch',
          `the file creates ${parsed.kind} ${made}, but the manifest key names ${idOf(q)}`,
        );
        continue;
      }
      callArgs = identityArgs(parsed.args).map((a) => ({ ...(a.name ? { name: a.name } : {}), type: a.type.base }));
    } else if (r.signature !== undefined) {
      try {
        const sig = parseSignature(r.signature);
        if (sig.name !== q.name || (sig.schema !== undefined && sig.schema !== q.schema)) {
          problems.error(
            [...path, 'signature'],
            'routine_name_mismatch',
            `the signature names ${idOf({ schema: sig.schema ?? q.schema, name: sig.name })}, but the manifest key names ${idOf(q)}`,
          );
          continue;
        }
        callArgs = sig.argTypes.map((t) => ({ type: t.base }));
      } catch (e) {
        problems.error(
          [...path, 'signature'],
          'invalid_signature',
          `signature ${JSON.stringify(r.signature)}: ${(e as Error).message}`,
        );
        continue;
      }
    }
    // A key that is a signature (an overload) says which one: a file or signature must agree.
    if (keyed.argTypes !== undefined) {
      if (callArgs === undefined) callArgs = keyed.argTypes.map((type) => ({ type }));
      else if (callArgs.map((a) => a.type).join(', ') !== keyed.argTypes.join(', ')) {
        problems.error(
          [...path, r.file !== undefined ? 'file' : 'signature'],
          'routine_signature_mismatch',
          `the key names ${idOf(q)}(${keyed.argTypes.join(', ')}), but the ${r.file !== undefined ? 'file creates' : 'signature names'} ${idOf(q)}(${callArgs.map((a) => a.type).join(', ')})`,
        );
        continue;
      }
    }
    const argTypes = callArgs?.map((a) => a.type);
    const id = routineId(q, argTypes);
    if (routines[id]) {
      problems.error(path, 'duplicate_name', `declares routine ${id} a second time`, true);
      continue;
    }
    const label = idOf(q);

    let distribution: Routine['distribution'] = {};
    if (r.local) {
      distribution = undefined;
      for (const k of ['distributed_by', 'colocation', 'colocate_with', 'force_delegation'] as const) {
        if (r[k] !== undefined)
          problems.error(
            [...path, k],
            'local_and_distributed',
            `${k} contradicts local: true (a local routine stays on the coordinator and is never delegated)`,
          );
      }
    } else if (r.distributed_by === undefined) {
      for (const k of ['colocation', 'force_delegation'] as const) {
        if (r[k] !== undefined)
          problems.error(
            [...path, k],
            'needs_distributed_by',
            `${k} needs distributed_by: a routine without a distribution argument is created on every node and never delegated`,
          );
      }
      if (r.colocate_with !== undefined) {
        const t = colocatedTable(r.colocate_with, ctx, [...path, 'colocate_with'], problems);
        if (t) distribution = { colocateWith: t.id };
      }
    } else {
      const idx = argIndex(r.distributed_by, callArgs, [...path, 'distributed_by'], problems, label, parsed?.args);
      let target: Table | undefined;
      let columnType: string | undefined;
      if (r.colocation !== undefined && r.colocate_with !== undefined) {
        problems.error(
          [...path, 'colocate_with'],
          'colocation_and_colocate_with',
          'give colocation or colocate_with, not both',
        );
      } else if (r.colocation !== undefined) {
        const g = ctx.groups[r.colocation];
        if (!g)
          problems.error(
            [...path, 'colocation'],
            'unknown_group',
            m.colocation[r.colocation]
              ? `colocation group ${JSON.stringify(r.colocation)} has no member tables to colocate with`
              : `colocation group ${JSON.stringify(r.colocation)} is not declared under colocation`,
          );
        else {
          target = ctx.tables[g.anchor];
          columnType = ctx.groupColumnType.get(g.name)?.type;
        }
      } else if (r.colocate_with !== undefined) {
        const tid = ctx.lookup(r.colocate_with);
        const t = tid ? ctx.tables[tid] : undefined;
        if (!t)
          problems.error(
            [...path, 'colocate_with'],
            'unknown_table',
            `colocate_with ${JSON.stringify(r.colocate_with)} is not a table the manifest declares`,
          );
        else if (t.distribution.kind !== 'hash')
          problems.error(
            [...path, 'colocate_with'],
            'colocate_with_not_hash',
            `colocate_with ${JSON.stringify(r.colocate_with)} is a ${t.distribution.kind.replace('_', '-')} table; a distributed routine needs a hash-distributed table`,
          );
        else {
          target = t;
          columnType = ctx.groupColumnType.get(t.distribution.group)?.type;
        }
      } else {
        problems.error(
          [...path, 'distributed_by'],
          'needs_colocation',
          'distributed_by needs colocation or colocate_with: a hash-distributed group to colocate with',
        );
      }
      // Citus accepts any type with an explicit coercion path to the column's (find_coercion_pathway,
      // COERCION_EXPLICIT) and casts the argument before it picks the shard; only an implicit cast
      // is known safe here, so the rest is said, and Citus refuses at apply what has no path at all.
      if (idx !== undefined && callArgs && columnType && !canCoerce(callArgs[idx]!.type, columnType)) {
        problems.warn(
          [...path, 'distributed_by'],
          'argument_type_mismatch',
          `distribution argument ${r.distributed_by} is ${callArgs[idx]!.type}, not the group's distribution column type ${columnType}: Citus casts it explicitly to pick the shard (a value the cast refuses fails the call), and refuses to distribute the routine where no cast exists`,
        );
      }
      if (idx !== undefined && target) {
        distribution = { argIndex: idx, colocateWith: target.id, forceDelegation: r.force_delegation ?? false };
        warnIntSequences(ctx, target, label, path, problems);
      }
      if (parsed?.inlinable) {
        problems.warn(
          [...path, 'file'],
          'inlinable_function',
          `${label} is an inlinable SQL function: the planner inlines it into the calling query, so Citus never delegates the call (make it plpgsql, or SECURITY DEFINER, or VOLATILE set-returning)`,
        );
      }
      if (parsed?.kind === 'procedure' && r.force_delegation) {
        problems.warn(
          [...path, 'force_delegation'],
          'force_delegation_procedure',
          'force_delegation has no effect on a procedure: Citus never delegates a CALL inside a transaction block',
        );
      }
    }
    routines[id] = {
      id,
      qname: q,
      ...(kind ? { kind } : {}),
      ...(argTypes ? { argTypes } : {}),
      ...(definition !== undefined ? { definition, unqualifiedDefinition: parsed!.schema === undefined } : {}),
      ...(distribution ? { distribution } : {}),
    };
    info[id] = { key, ...(parsed ? { parsed } : {}) };
  }
  return { routines, info };
}
