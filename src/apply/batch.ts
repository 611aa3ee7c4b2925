// Many statements of the apply's transaction in one simple-protocol message: the server runs them
// back to back instead of waiting for the client between each (issue #25: 14,001 statements of a
// 1,000-table plan in 2.4 s instead of 4.3 s one by one; psql -f takes 4.2-5.5 s). The server
// answers each statement with a CommandComplete, so the statement an error stopped is known
// exactly: by the error's position when it has one (a syntax error stops the whole message before
// any of it runs), else as the one after those completed. A statement joins a batch only when a
// scan of its text finds exactly one statement in it (singleStatement): a count that did not
// match the server's would name the wrong statement.
import type pg from 'pg';

/** A batch's failure: which of its statements, and the server's error as that statement's own. */
export class BatchFailure extends Error {
  constructor(
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super((cause as Error)?.message ?? String(cause));
  }
}

/**
 * The server reported another number of statements than were sent (a text the scan took for one
 * statement was not): which statement a reply belongs to is unknown, so nothing is trusted.
 */
export class BatchMismatch extends Error {
  constructor(
    readonly sent: number,
    readonly reported: number,
  ) {
    super(`the server ran ${reported} statements of a batch of ${sent}`);
  }
}

const isIdentChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c >= 128;

/**
 * Whether `sql` is exactly one statement as PostgreSQL's scanner splits text at top-level
 * semicolons (quotes, dollar quotes, comments and quoted identifiers skipped). False when unsure:
 * an unterminated quote or comment, a backslash in a standard string (what it means depends on
 * standard_conforming_strings), nothing but comments, or two statements.
 */
export function singleStatement(sql: string): boolean {
  let statements = 0;
  let inStatement = false;
  const n = sql.length;
  let i = 0;
  const content = (): void => {
    if (!inStatement) statements++;
    inStatement = true;
  };
  while (i < n) {
    const c = sql.charCodeAt(i);
    if (c === 45 && sql.charCodeAt(i + 1) === 45) {
      // -- to the end of the line
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === 47 && sql.charCodeAt(i + 1) === 42) {
      // /* … */, nested
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        const d =
          sql.charCodeAt(i) === 47 && sql.charCodeAt(i + 1) === 42
            ? 1
            : sql.charCodeAt(i) === 42 && sql.charCodeAt(i + 1) === 47
              ? -1
              : 0;
        depth += d;
        i += d === 0 ? 1 : 2;
      }
      if (depth > 0) return false;
    } else if (c === 39) {
      // '…': E'…' takes backslash escapes; in a standard string a backslash is unsure.
      content();
      const prev = i > 0 ? sql.charCodeAt(i - 1) : 0;
      const escaped = (prev === 69 || prev === 101) && !(i > 1 && isIdentChar(sql.charCodeAt(i - 2)));
      i++;
      for (;;) {
        if (i >= n) return false;
        const q = sql.charCodeAt(i);
        if (q === 92) {
          if (!escaped) return false;
          i += 2;
        } else if (q === 39) {
          if (sql.charCodeAt(i + 1) === 39) i += 2;
          else break;
        } else i++;
      }
      i++;
    } else if (c === 34) {
      // "…", "" inside
      content();
      i++;
      for (;;) {
        const end = sql.indexOf('"', i);
        if (end < 0) return false;
        i = end + 1;
        if (sql.charCodeAt(i) !== 34) break;
        i++;
      }
    } else if (c === 36 && !(i > 0 && isIdentChar(sql.charCodeAt(i - 1)))) {
      // $tag$ … $tag$ (a $1 parameter is not one: a tag does not start with a digit)
      content();
      const m = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(sql.slice(i, i + 256));
      if (!m) i++;
      else {
        const end = sql.indexOf(m[0], i + m[0].length);
        if (end < 0) return false;
        i = end + m[0].length;
      }
    } else if (c === 59) {
      inStatement = false;
      i++;
    } else {
      if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 12) content();
      i++;
    }
  }
  return statements === 1;
}

/** Characters as PostgreSQL counts them (an error's position): code points, not UTF-16 units. */
const codePoints = (s: string): number => {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
};

/** The server's error as statement `index`'s own: its position made relative to that statement. */
function localError(e: unknown, position: number | undefined): unknown {
  const x = e as { code?: string; message?: string; detail?: string; hint?: string; where?: string };
  return {
    code: x.code,
    message: x.message ?? String(e),
    detail: x.detail,
    hint: x.hint,
    where: x.where,
    ...(position !== undefined ? { position: String(position) } : {}),
  };
}

/** The columns of run_command_on_workers' rows, in the order read. */
const NODE_COLUMNS = ['nodename', 'nodeport', 'success', 'result'] as const;

/** Why a run_command_on_workers statement failed: the nodes (`host:port: result`) it failed on. */
export function failedNodesMessage(nodes: readonly string[]): string {
  return `the command failed on ${nodes.length === 1 ? 'a worker' : `${nodes.length} workers`}: ${nodes.join('; ')}`;
}

// The statements are joined with a newline before each semicolon: a statement ending in a --
// comment would otherwise swallow it.
const SEPARATOR = '\n;\n';

/**
 * Runs `statements` (each one statement: singleStatement) in one message on `client`, calling
 * `completed(i)` as the server reports statement i done. Throws BatchFailure naming the statement
 * that failed; the statements after it did not run (the transaction is aborted). Throws
 * BatchMismatch when all ran but the server counted them otherwise.
 */
export function runBatch(
  client: pg.Client,
  statements: readonly string[],
  completed: (index: number) => void,
): Promise<void> {
  const text = statements.join(SEPARATOR);
  let done = 0;
  // The rows of a run_command_on_workers (or _all_nodes) call: a node it could not run the
  // command on is a row with success = false, not an error. Such a row fails its statement.
  let nodeColumns: readonly number[] | undefined;
  let failedNodes: string[] = [];
  return new Promise<void>((resolve, reject) => {
    const fail = (e: unknown): void => {
      const position = Number((e as { position?: string }).position);
      if (!Number.isFinite(position) || position < 1) {
        reject(new BatchFailure(Math.min(done, statements.length - 1), localError(e, undefined)));
        return;
      }
      // By position: the statement whose text holds it.
      let start = 0;
      for (let i = 0; i < statements.length; i++) {
        const end = start + codePoints(statements[i]!) + codePoints(SEPARATOR);
        if (position - 1 < end || i === statements.length - 1) {
          reject(new BatchFailure(i, localError(e, Math.max(1, position - start))));
          return;
        }
        start = end;
      }
    };
    const submittable = {
      submit: (connection: { query(text: string): void }): null => {
        connection.query(text);
        return null;
      },
      handleRowDescription: (msg: { fields: readonly { name: string }[] }): void => {
        const at = NODE_COLUMNS.map((n) => msg.fields.findIndex((f) => f.name === n));
        nodeColumns = at.every((i) => i >= 0) ? at : undefined;
      },
      handleDataRow: (msg: { fields: readonly unknown[] }): void => {
        if (!nodeColumns) return;
        const [name, port, success, result] = nodeColumns.map((i) => msg.fields[i]);
        if (String(success) === 'f') failedNodes.push(`${String(name)}:${String(port)}: ${String(result ?? '')}`);
      },
      handlePortalSuspended: (): void => undefined,
      handleEmptyQuery: (): void => undefined,
      handleCommandComplete: (): void => {
        nodeColumns = undefined;
        if (failedNodes.length > 0) {
          reject(new BatchFailure(Math.min(done, statements.length - 1), { message: failedNodesMessage(failedNodes) }));
          failedNodes = [];
        }
        if (done < statements.length) completed(done);
        done++;
      },
      // pg ends the query at the error (the ReadyForQuery after it goes to no query).
      handleError: fail,
      handleReadyForQuery: (): void =>
        statements.length > 1 && done !== statements.length
          ? reject(new BatchMismatch(statements.length, done))
          : resolve(),
      // No statement of a plan copies from the client; refused, should one try.
      handleCopyInResponse: (connection: { sendCopyFail(msg: string): void }): void =>
        connection.sendCopyFail('citus-migrate sends no COPY data'),
      handleCopyData: (): void => undefined,
    };
    (client as unknown as { query(q: unknown): unknown }).query(submittable);
  });
}
