// A CHECK an online apply added NOT VALID and stopped before validating: validated in place, not
// dropped and added again (diff/objects.ts).
import type { SqlObject } from '../../model/types.js';
import { objectKey } from '../../objects/key.js';
import { addedCheck } from '../../objects/statement-parts.js';
import type { QualifiedName } from '../../sql/quote.js';

/**
 * A CHECK the catalog shows NOT VALID (an online apply that stopped before validating it) that
 * is otherwise the declared one: validated, not dropped and added again.
 */
export function validatedLater(d: SqlObject, a: SqlObject): { table: QualifiedName; name: string } | undefined {
  if (a.create.length !== 1 || !/ NOT VALID$/.test(a.create[0]!)) return undefined;
  const check = addedCheck(a.create[0]!, 'public');
  if (!check?.notValid) return undefined;
  const valid = a.create[0]!.replace(/ NOT VALID$/, '');
  return objectKey([valid], 'public') === objectKey(d.create, d.searchPath) ? check : undefined;
}
