// The bad-input corpus: test/bad-input/NNN-slug.yaml, each a manifest (or CLI case) whose header
// comments state what must happen:
//   # expect-exit: 3
//   # expect-stderr: tables.t: a table is at most one of …      (a substring of stderr)
//   # args: plan --offline -f {file}                           (default; {db} = a fresh database)
//   # db: plain | plain-with-stray                              (run against a database)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const BAD_INPUT_DIR = 'test/bad-input';

export interface BadInputCase {
  readonly name: string;
  readonly file: string;
  readonly exit: number;
  readonly stderr?: string;
  readonly args: string;
  readonly db?: string;
}

export function badInputCases(): BadInputCase[] {
  return readdirSync(BAD_INPUT_DIR)
    .filter((f) => /^\d{3}-.*\.yaml$/.test(f))
    .sort()
    .map((f) => {
      const text = readFileSync(join(BAD_INPUT_DIR, f), 'utf8');
      const header = (key: string): string | undefined => new RegExp(`^# ${key}: (.*)$`, 'm').exec(text)?.[1];
      return {
        name: f.replace(/\.yaml$/, ''),
        file: join(BAD_INPUT_DIR, f),
        exit: Number(header('expect-exit')),
        ...(header('expect-stderr') ? { stderr: header('expect-stderr')! } : {}),
        args: header('args') ?? 'plan --offline -f {file}',
        ...(header('db') ? { db: header('db')! } : {}),
      };
    });
}

/** Splits a command line on spaces, keeping "double-quoted" parts together. */
export function splitArgs(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) out.push(m[1] ?? m[2]!);
  return out;
}

/** A line that looks like a JavaScript stack frame. */
export const STACK_FRAME = /^\s+at .+(\(|\s)(node:|file:|\/).+:\d+:\d+\)?$/m;
