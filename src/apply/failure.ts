// The failure report: the step that failed, its SQL with a caret under the server's error
// position, and every field of the server's error — never the "current transaction is aborted"
// that follows it.
import { CmError, EXIT } from '../errors.js';

export interface ServerError {
  readonly sqlstate?: string;
  readonly message: string;
  readonly detail?: string;
  readonly hint?: string;
  readonly position?: number; // 1-based character offset into the statement
  readonly where?: string;
}

/** Keeps the fields of a pg DatabaseError. */
export function serverError(e: unknown): ServerError {
  const x = e as { code?: string; message?: string; detail?: string; hint?: string; position?: string; where?: string };
  return {
    ...(x.code ? { sqlstate: x.code } : {}),
    message: x.message ?? String(e),
    ...(x.detail ? { detail: x.detail } : {}),
    ...(x.hint ? { hint: x.hint } : {}),
    ...(x.position ? { position: Number(x.position) } : {}),
    ...(x.where ? { where: x.where } : {}),
  };
}

/** The statement with a caret line under the character at `position` (1-based). */
export function caret(sql: string, position: number | undefined): string {
  const lines = sql.split('\n');
  if (position === undefined || position < 1) return lines.map((l) => `    ${l}`).join('\n');
  let offset = position - 1;
  const out: string[] = [];
  let placed = false;
  for (const line of lines) {
    out.push(`    ${line}`);
    if (!placed && offset <= line.length) {
      out.push(`    ${' '.repeat(offset)}^`);
      placed = true;
    }
    offset -= line.length + 1;
  }
  return out.join('\n');
}

/** A failed apply: which step, which statement, what the server said. */
export class ApplyError extends CmError {
  constructor(
    readonly stepIndex: number,
    readonly stepSummary: string,
    readonly statement: string,
    readonly server: ServerError,
    readonly committed: boolean,
  ) {
    super(
      `apply failed at step ${stepIndex} (${stepSummary}): ${server.sqlstate ? `${server.sqlstate} ` : ''}${server.message}`,
      'apply_failed',
      EXIT.error,
      { step: stepIndex, summary: stepSummary, statement, ...server, committed },
    );
  }

  /** The multi-line report for a terminal. */
  report(): string {
    const s = this.server;
    return [
      `error: apply failed at step ${this.stepIndex}: ${this.stepSummary}`,
      `  ERROR${s.sqlstate ? ` ${s.sqlstate}` : ''}: ${s.message}`,
      ...(s.detail ? [`  DETAIL: ${s.detail}`] : []),
      ...(s.hint ? [`  HINT: ${s.hint}`] : []),
      ...(s.where ? [`  CONTEXT: ${s.where.split('\n')[0]}`] : []),
      '  statement:',
      caret(this.statement, s.position),
      this.committed
        ? '  the transaction had committed; this step ran after COMMIT'
        : '  nothing was applied: the transaction was rolled back',
    ].join('\n');
  }
}
