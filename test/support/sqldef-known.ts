// sqldef cases that end "silent" (their dumps differ and nothing said so) or "rejected" (introspect
// wrote a manifest the tool's own plan rejects) today, with why. Keep it exact: a listed case that
// ends otherwise fails the run until it is removed from here (or its class corrected).
import type { Klass } from './sqldef.js';

export const KNOWN: ReadonlyMap<string, { readonly klass: Klass; readonly why: string }> = new Map<
  string,
  { readonly klass: Klass; readonly why: string }
>([]);
