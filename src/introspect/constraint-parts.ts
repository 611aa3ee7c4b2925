// How the catalog's constraint columns read as the model's: pg_constraint's action letters and
// its DEFERRABLE / INITIALLY DEFERRED flags.
import type { Deferral, FkAction } from '../model/types.js';

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
