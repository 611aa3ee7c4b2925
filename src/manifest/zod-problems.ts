// zod's issues with the manifest as located problems: each at the author's path (a `__proto__`
// key under its own name: proto-keys.ts), a failed union narrowed to the branch meant, an unknown
// key with the closest allowed one.
import type { z } from 'zod';
import type { ProblemList } from './problems.js';
import { authorPath } from './proto-keys.js';
import { manifestSchema } from './schema.js';
import { closestKey } from './suggest.js';
import { UNION_HINTS } from './union-hints.js';
import { InexactNumber } from './yaml-numbers.js';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint')
    return `the integer ${value}, past what this setting holds exactly (±${Number.MAX_SAFE_INTEGER})`;
  if (value instanceof InexactNumber)
    return `the number ${value.text}, which is not held exactly (write it as a string, "${value.text}", where the value is SQL)`;
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = raw;
  for (const seg of path)
    v = v && typeof v === 'object' && Object.hasOwn(v, seg) ? (v as Record<PropertyKey, unknown>)[seg] : undefined;
  return v;
}

type Issue = z.core.$ZodIssue;

/** For a failed union, the issues of the one branch the input was clearly meant for, if any. */
function unionBranch(issue: Issue & { errors?: Issue[][] }): Issue[] | undefined {
  const branches = (issue.errors ?? []).filter(
    (errs) => !errs.some((e) => e.path.length === 0 && (e.code === 'invalid_type' || e.code === 'unrecognized_keys')),
  );
  return branches.length === 1 ? branches[0] : undefined;
}

/** A copy of `raw` without the keys unrecognized_keys issues name. */
export function withoutKeys(raw: unknown, issues: readonly Issue[]): unknown {
  const copy = structuredClone(raw) as Record<string, unknown>;
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const at = valueAt(
      copy,
      issue.path.filter((s): s is string | number => typeof s !== 'symbol'),
    );
    if (at && typeof at === 'object') for (const k of issue.keys) delete (at as Record<string, unknown>)[k];
  }
  return copy;
}

/** Adds zod's issues with `raw` (the value zod read) to `out`. */
export function zodProblems(
  error: { issues: readonly Issue[] },
  raw: unknown,
  out: ProblemList,
  prefix: readonly (string | number)[] = [],
): void {
  for (const issue of error.issues) {
    // zod's path, in the value it read; problems name the author's (a `__proto__` key: authorPath).
    const path = [...prefix, ...issue.path.filter((s): s is string | number => typeof s !== 'symbol')];
    const input = valueAt(raw, path);
    const at = authorPath(path);
    if (issue.code === 'invalid_union') {
      const branch = unionBranch(issue as Issue & { errors?: Issue[][] });
      if (branch) {
        zodProblems({ issues: branch }, raw, out, path);
        continue;
      }
      const hint = UNION_HINTS.find(([re]) => re.test(at.join('.')))?.[1];
      out.error(
        at,
        'invalid_type',
        hint ? `${hint}, got ${describe(input)}` : `got ${describe(input)}, which matches none of the accepted forms`,
      );
      continue;
    }
    if (issue.code === 'invalid_key') {
      const inner = (issue as Issue & { issues?: Issue[] }).issues?.[0];
      out.error(at, 'invalid_name', inner?.message ?? issue.message, true);
      continue;
    }
    if (issue.code === 'unrecognized_keys') {
      for (const key of authorPath(issue.keys)) {
        const near = closestKey(manifestSchema, at, String(key));
        out.error(
          [...at, key],
          'unknown_key',
          `unknown key ${JSON.stringify(key)}${near ? `; did you mean ${JSON.stringify(near)}?` : ''}`,
          true,
        );
      }
    } else if (issue.code === 'invalid_type') {
      out.error(
        at,
        'invalid_type',
        input === undefined ? 'is required' : `expected ${issue.expected}, got ${describe(input)}`,
      );
    } else if (issue.code === 'invalid_value' && input === undefined) {
      out.error(at, 'invalid_type', 'is required');
    } else if (issue.code === 'invalid_value') {
      const values = issue.values.map((v) => JSON.stringify(v)).join(', ');
      out.error(
        at,
        'invalid_value',
        issue.values.length === 1
          ? `expected ${values}, got ${describe(input)}`
          : `expected one of ${values}, got ${describe(input)}`,
      );
    } else {
      out.error(at, issue.code === 'custom' ? 'invalid_value' : issue.code, issue.message);
    }
  }
}
