// pg_constraint's foreign-key action letters and DEFERRABLE / INITIALLY DEFERRED flags as the
// model holds them; the catalog and the parse tree of ADD CONSTRAINT spell them alike.
import type { Deferral, FkAction } from './types.js';

/** confdeltype / confupdtype letters. */
export const FK_ACTIONS: Readonly<Record<string, FkAction>> = {
  a: 'no action',
  r: 'restrict',
  c: 'cascade',
  n: 'set null',
  d: 'set default',
};

/** A constraint's DEFERRABLE / INITIALLY DEFERRED, as the model holds it (absent when not deferrable). */
export const deferral = (c: { deferrable?: boolean | undefined; deferred?: boolean | undefined }): Deferral => ({
  ...(c.deferrable ? { deferrable: true } : {}),
  ...(c.deferred ? { initiallyDeferred: true } : {}),
});
