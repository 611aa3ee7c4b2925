// A change the diff refuses or cannot make, as data: the CLI decides what to do with it. Below
// the diff and all its parts (diff-*.ts, online.ts, checks/key-problems.ts), which report into it.

export interface DiffProblem {
  readonly code: string;
  readonly object: string;
  /** What is wrong with `object`, without naming it again (lines read "object: message"). */
  readonly message: string;
  /** Where in the project's files it is (`file:line`), when the problem is at a place in them. */
  readonly where?: string;
  /** The manifest path it is about (['tables', 't', 'columns', 'c']), located as `where` before it is shown. */
  readonly at?: readonly (string | number)[];
}
