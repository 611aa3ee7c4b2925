// The `sequences:` section introspect writes: every option that is not PostgreSQL's default (the
// model already leaves those out), OWNED BY as `owned_by`, and nothing for a serial column's own
// sequence at CREATE TABLE's defaults.
import { isSerialsOwn } from '../model/serial-sequence.js';
import type { ClusterModel, Sequence } from '../model/types.js';
import { dict } from '../util/dict.js';
import { yamlInt } from '../manifest/yaml-numbers.js';

function sequenceEntry(s: Sequence, serial: boolean, tableKey: (id: string) => string): Record<string, unknown> {
  return {
    // A serial column's own sequence takes its type and owner from the column.
    ...(serial ? {} : { type: s.type }),
    cache: yamlInt(s.cache),
    ...(s.increment !== undefined ? { increment: yamlInt(s.increment) } : {}),
    ...(s.min !== undefined ? { min: yamlInt(s.min) } : {}),
    ...(s.max !== undefined ? { max: yamlInt(s.max) } : {}),
    ...(s.start !== undefined ? { start: yamlInt(s.start) } : {}),
    ...(s.cycle ? { cycle: true } : {}),
    ...(s.unlogged ? { unlogged: true } : {}),
    ...(!serial && s.ownedBy ? { owned_by: { table: tableKey(s.ownedBy.table), column: s.ownedBy.column } } : {}),
  };
}

const atSerialDefaults = (s: Sequence): boolean =>
  s.cache === '1' &&
  !s.unlogged &&
  !s.cycle &&
  s.increment === undefined &&
  s.min === undefined &&
  s.max === undefined &&
  s.start === undefined;

/** The manifest's sequences, keyed by manifest key. */
export function manifestSequences(
  m: ClusterModel,
  key: (q: { schema: string; name: string }) => string,
): Record<string, unknown> {
  const out = dict<unknown>();
  const tableKey = (id: string): string => key(m.tables[id]!.qname);
  for (const s of Object.values(m.sequences)) {
    // A sequence is the serial column's own only when that column is written as serial; one a
    // column of another type owns (a domain over integer with DEFAULT nextval) is declared.
    const serial = isSerialsOwn(s, m);
    if (serial && atSerialDefaults(s)) continue;
    // An owner table the manifest does not hold (not adopted) cannot be named.
    const owned = s.ownedBy && m.tables[s.ownedBy.table] ? s : { ...s, ownedBy: undefined };
    out[key(s.qname)] = sequenceEntry(owned, serial, tableKey);
  }
  return out;
}
