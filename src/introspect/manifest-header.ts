// The comment an introspected manifest starts with: where it was read from, and what it cannot
// carry (objects of kinds citus-migrate does not manage).
import { notManagedLines } from '../model/not-managed.js';
import { visible } from '../util/visible.js';
import type { LiveState } from '../model/live-state.js';

/** The header comment's text (the yaml package writes it as comment lines: no line can escape). */
export function manifestHeader(live: LiveState): string {
  const header = ` Written by citus-migrate introspect from ${live.doc.server.database} (PostgreSQL ${live.doc.server.version.split(' ')[0]}${live.citus ? `, Citus ${live.doc.server.citus}` : ', no Citus'}).`;
  const leftOut = live.doc.notManaged ?? [];
  return [
    header,
    ...(leftOut.length > 0
      ? [
          '',
          ` Left out: ${leftOut.length} object${leftOut.length === 1 ? '' : 's'} of kinds citus-migrate does not manage (plans name them as not managed; apply never creates them):`,
          ...notManagedLines(leftOut, Number.MAX_SAFE_INTEGER).map((l) => `   ${visible(l)}`),
        ]
      : []),
  ].join('\n');
}
