// Why a statement of a `sql:` file that declares no object is refused. A file holds declarations
// of objects the tool manages; a statement that runs code, changes roles, privileges, settings or
// rows would not be in the plan (it renders each declaration on its own), so the file would say
// something the plan does not do — and a file that did run it would run it with the privileges
// of whoever applies the plan. Each class says what it would have done.

const RUNS_CODE = 'it runs code with the privileges of whoever applies the plan';
const ROLES = 'it changes roles, their attributes or what they own, which the tool does not manage';
const SETTINGS = 'it changes settings that later sessions start with';
const ROWS = 'it changes rows';

/** What each refused statement class would do, by the parser's node name. */
const WHY: Readonly<Record<string, [what: string, why: string]>> = {
  DoStmt: ['DO', RUNS_CODE],
  CallStmt: ['CALL', RUNS_CODE],
  ExecuteStmt: ['EXECUTE', RUNS_CODE],
  PrepareStmt: ['PREPARE', 'it prepares a statement to run'],
  ExplainStmt: ['EXPLAIN', 'EXPLAIN ANALYZE runs the statement it explains'],
  LoadStmt: ['LOAD', 'it loads a shared library into the server'],
  CopyStmt: ['COPY', 'it reads or writes rows (COPY … PROGRAM runs a shell command on the server)'],
  AlterSystemStmt: ['ALTER SYSTEM', "it changes the server's configuration"],
  CreateRoleStmt: ['CREATE ROLE', ROLES],
  AlterRoleStmt: ['ALTER ROLE', ROLES],
  DropRoleStmt: ['DROP ROLE', ROLES],
  GrantRoleStmt: ['GRANT / REVOKE of a role', ROLES],
  ReassignOwnedStmt: ['REASSIGN OWNED', ROLES],
  DropOwnedStmt: ['DROP OWNED', ROLES],
  AlterRoleSetStmt: ['ALTER ROLE … SET', SETTINGS],
  AlterDatabaseSetStmt: ['ALTER DATABASE … SET', SETTINGS],
  AlterDatabaseStmt: ['ALTER DATABASE', SETTINGS],
  TransactionStmt: ['BEGIN / COMMIT / ROLLBACK', 'the plan is one transaction of its own'],
  InsertStmt: ['INSERT', ROWS],
  UpdateStmt: ['UPDATE', ROWS],
  DeleteStmt: ['DELETE', ROWS],
  MergeStmt: ['MERGE', ROWS],
  TruncateStmt: ['TRUNCATE', ROWS],
};

/** Why a statement of this class is refused, or undefined for one without a reason of its own. */
export function refusedStatement(tag: string): string | undefined {
  const known = WHY[tag];
  if (!known) return undefined;
  return `${known[0]} is refused: ${known[1]}; a sql: file holds declarations only, and the plan would not run it`;
}
