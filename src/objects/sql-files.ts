// What the `sql:` files are to objects/from-sql.ts: the files read, and what it reads in them.
import type { PrivilegeOp } from '../model/privilege-types.js';
import type { SqlObject } from '../model/types.js';

export interface SqlFile {
  readonly file: string; // as shown in problems
  readonly text: string;
}

export interface SqlFileProblem {
  readonly where: string; // file:line:col
  readonly code: string;
  readonly message: string;
}

/** The objects the files declare, their routines' statements, the schemas they name, their problems. */
export interface SqlFileObjects<R> {
  readonly objects: Record<string, SqlObject>;
  readonly routines: R[];
  readonly schemas: string[];
  readonly problems: SqlFileProblem[];
  /** Each GRANT / REVOKE one privilege at a time, in order. */
  readonly privilegeOps: readonly PrivilegeOp[];
}
