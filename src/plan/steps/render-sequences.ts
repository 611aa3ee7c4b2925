// The SQL and summaries of sequence steps: CREATE SEQUENCE with what differs from PostgreSQL's
// defaults, ALTER SEQUENCE with what differs from the sequence as it is, OWNED BY.
import { effectiveBounds } from '../../model/sequence-bounds.js';
import { identitySequence, type IntegerType } from '../../model/identity-options.js';
import type { IdentityOptions, Sequence } from '../../model/types.js';
import { quoteIdent, quoteQualified, sqlInt, type QualifiedName } from '../../sql/quote.js';

/** CREATE SEQUENCE's options: AS always, the rest where declared. */
export function createSequenceOptions(s: Sequence): string {
  return [
    `AS ${s.type}`,
    s.increment !== undefined ? `INCREMENT BY ${sqlInt(s.increment)}` : '',
    s.min !== undefined ? `MINVALUE ${sqlInt(s.min)}` : '',
    s.max !== undefined ? `MAXVALUE ${sqlInt(s.max)}` : '',
    s.start !== undefined ? `START WITH ${sqlInt(s.start)}` : '',
    `CACHE ${sqlInt(s.cache)}`,
    s.cycle ? 'CYCLE' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * ALTER SEQUENCE's options taking `from` to `to`, in the order PostgreSQL applies them. Bounds are
 * compared as PostgreSQL fills them in: a type or increment change moves a default bound, and
 * START is not moved by a new MINVALUE, so it is given whenever it ends elsewhere.
 */
export function alterSequenceOptions(to: Sequence, from: Sequence): string[] {
  const want = effectiveBounds(to);
  const have = effectiveBounds(from);
  const out: string[] = [];
  if (to.type !== from.type) out.push(`AS ${to.type}`);
  if ((to.increment ?? '1') !== (from.increment ?? '1')) out.push(`INCREMENT BY ${sqlInt(to.increment ?? 1)}`);
  if (want.min !== have.min || to.type !== from.type)
    out.push(to.min !== undefined ? `MINVALUE ${sqlInt(to.min)}` : 'NO MINVALUE');
  if (want.max !== have.max || to.type !== from.type)
    out.push(to.max !== undefined ? `MAXVALUE ${sqlInt(to.max)}` : 'NO MAXVALUE');
  if (want.start !== have.start) out.push(`START WITH ${sqlInt(want.start)}`);
  if (to.cache !== from.cache) out.push(`CACHE ${sqlInt(to.cache)}`);
  if (to.cycle !== from.cycle) out.push(to.cycle ? 'CYCLE' : 'NO CYCLE');
  return out;
}

/** What an alter_sequence step changes, for its summary. */
export function alterSequenceSummary(to: Sequence, from: Sequence): string {
  const name = quoteQualified(to.qname);
  const options = alterSequenceOptions(to, from);
  if (options.length === 1 && to.cache !== from.cache)
    return `set cache ${to.cache} on sequence ${name} before its table is distributed`;
  return `alter sequence ${name}: ${options.map((o) => o.toLowerCase()).join(', ')}`;
}

/** OWNED BY table.column, or NONE. */
export function ownedBySql(owner: { readonly table: QualifiedName; readonly column: string } | undefined): string {
  return owner ? `OWNED BY ${quoteQualified(owner.table)}.${quoteIdent(owner.column)}` : 'OWNED BY NONE';
}

/** ` (SEQUENCE NAME … START WITH … INCREMENT BY …)` after AS IDENTITY: its name when given, the options not at their defaults, or nothing. */
export function identityOptionsSql(o: IdentityOptions | undefined, sequence?: QualifiedName): string {
  const parts = [
    sequence !== undefined ? `SEQUENCE NAME ${quoteQualified(sequence)}` : '',
    o?.start !== undefined ? `START WITH ${sqlInt(o.start)}` : '',
    o?.increment !== undefined ? `INCREMENT BY ${sqlInt(o.increment)}` : '',
    o?.min !== undefined ? `MINVALUE ${sqlInt(o.min)}` : '',
    o?.max !== undefined ? `MAXVALUE ${sqlInt(o.max)}` : '',
    o?.cache !== undefined ? `CACHE ${sqlInt(o.cache)}` : '',
    o?.cycle ? 'CYCLE' : '',
  ].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(' ')})` : '';
}

/**
 * ALTER COLUMN's `SET …` options taking an identity column's sequence from `from` to `to` (the
 * same rules as ALTER SEQUENCE's), then `RESTART` when asked: the sequence was never used, and
 * restarts at its new START as a new column's would.
 */
export function alterIdentityOptions(
  type: IntegerType,
  to: IdentityOptions | undefined,
  from: IdentityOptions | undefined,
  restart: boolean,
): string[] {
  const set = alterSequenceOptions(identitySequence(type, to), identitySequence(type, from)).map((o) => `SET ${o}`);
  return [...set, ...(restart ? ['RESTART'] : [])];
}
