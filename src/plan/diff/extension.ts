// An extension declared with another schema or version than it has: ALTER EXTENSION … SET SCHEMA
// / UPDATE TO, in place. PostgreSQL updates an extension only along the update scripts it has:
// the catalog read asks it which versions those reach from the installed one
// (pg_extension_update_paths), so a version with no path (older, or one the server does not
// have) is a problem naming those it can reach, never an apply that fails ("extension … has no
// update path from version '1.6' to version '1.5'"), and one with a path is planned whatever its
// number. Without that answer (a catalog document recorded before it was read) versions are
// compared by number: contrib ships no script that goes back.
import type { SqlObject } from '../../model/types.js';
import { quoteIdent, quoteLiteral } from '../../sql/quote.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';

/** -1, 0 or 1 as version `a` is older, the same or newer than `b` ('1.10' after '1.9'); undefined when they do not compare (non-numeric parts). */
export function compareVersions(a: string, b: string): number | undefined {
  const parts = (v: string): number[] | undefined =>
    /^\d+([.-]\d+)*$/.test(v) ? v.split(/[.-]/).map(Number) : undefined;
  const x = parts(a);
  const y = parts(b);
  if (!x || !y) return undefined;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** The step that moves or updates extension `a` to what `d` declares, or the problem when it cannot. */
export function extensionChange(d: SqlObject, a: SqlObject): Step | DiffProblem {
  const sql: string[] = [];
  if (d.extension?.schema !== undefined && d.extension.schema !== a.extension?.schema)
    sql.push(`ALTER EXTENSION ${d.name} SET SCHEMA ${quoteIdent(d.extension.schema)}`);
  const want = d.extension?.version;
  const have = a.extension?.version;
  if (want !== undefined && want !== have) {
    const updates = a.extension?.updates
      ? [...a.extension.updates].sort((x, y) => compareVersions(x, y) ?? x.localeCompare(y))
      : undefined;
    if (updates !== undefined && !updates.includes(want))
      return {
        code: 'extension_no_update_path',
        object: d.id,
        message: `is at version ${have}: PostgreSQL has no update path from it to ${want} (pg_extension_update_paths); ${updates.length > 0 ? `it can be updated to ${updates.join(', ')}` : 'it cannot be updated to any other version'}: declare ${updates.length > 0 ? `${have} or one of those` : have}, or drop and create it by hand`,
      };
    if (updates === undefined && have !== undefined && compareVersions(want, have) === -1)
      return {
        code: 'extension_no_update_path',
        object: d.id,
        message: `is at version ${have}: PostgreSQL has no update path back to ${want} (ALTER EXTENSION … UPDATE only goes forward); declare ${have} or a later version, or drop and create it by hand`,
      };
    sql.push(`ALTER EXTENSION ${d.name} UPDATE TO ${quoteLiteral(want)}`);
  }
  return { kind: 'alter_object', object: d.id, objectKind: d.kind, statements: sql, what: 'update' };
}
