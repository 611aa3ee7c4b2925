// Reading a JSON file the tool wrote earlier (a saved plan, a bench report) through a zod
// schema: a file that is not one is refused with every problem named by its path in the file.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { CmError, EXIT } from '../errors.js';

/** `file: path: message` lines for the first `max` issues, then how many more. */
export function issueLines(file: string, issues: readonly z.core.$ZodIssue[], max = 10): string[] {
  const lines = issues.slice(0, max).map(
    (i) =>
      `  ${file}: ${
        i.path.length
          ? i.path
              .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
              .join('')
              .replace(/^\./, '')
          : '(top)'
      }: ${i.message}`,
  );
  return issues.length > max ? [...lines, `  … and ${issues.length - max} more`] : lines;
}

/**
 * Reads `file` (relative to `cwd`) as JSON and validates it: its `format` field first, then the
 * schema; `what` names what it should be ("plan", "bench report"). Errors carry `code` and exit 1.
 */
export function readJsonFile<S extends z.ZodType>(
  file: string,
  cwd: string,
  expect: { schema: S; what: string; format: string; code: string },
): z.infer<S> {
  const { schema, what, code } = expect;
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch (e) {
    throw new CmError(`cannot read ${what} ${file}: ${(e as Error).message}`, 'file', EXIT.error);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CmError(`cannot read ${what} ${file}: not JSON (${(e as Error).message})`, code, EXIT.error);
  }
  // Another kind of document altogether: say which, rather than list every field it lacks.
  const format = (raw as { format?: unknown } | null)?.format;
  if (format !== expect.format)
    throw new CmError(
      `${file} is not a ${what}: its format is ${JSON.stringify(format ?? null)}, expected ${JSON.stringify(expect.format)}`,
      code,
      EXIT.error,
    );
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw new CmError(
      `${file} is not a ${what}:\n${issueLines(file, parsed.error.issues).join('\n')}`,
      code,
      EXIT.error,
      { issues: parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })) },
    );
  return parsed.data;
}
