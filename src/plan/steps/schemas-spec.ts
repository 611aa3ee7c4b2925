// Step records of schemas and sequences.
import { quoteIdent, sqlInt } from '../../sql/quote.js';
import { CITUS, PLAIN, type StepSpecs } from './spec-record.js';
import { everywhere, q } from './sql-parts.js';
import { alterSequenceOptions, alterSequenceSummary, createSequenceOptions, ownedBySql } from './render-sequences.js';
import { schemaRef, sequenceRef } from '../../model/object-ref.js';
import { effectiveBounds } from '../../model/sequence-bounds.js';

type SchemaKind =
  | 'create_schema'
  | 'drop_schema'
  | 'create_sequence'
  | 'alter_sequence'
  | 'alter_sequence_persistence'
  | 'set_sequence_owner'
  | 'alter_sequence_everywhere'
  | 'drop_sequence';

export const SCHEMA_SPECS: StepSpecs<SchemaKind> = {
  create_schema: {
    ...PLAIN,
    phase: () => 'schemas',
    hazards: () => [],
    object: (s) => schemaRef(s.schema),
    sql: (s) => [`CREATE SCHEMA ${quoteIdent(s.schema)}`],
    summary: (s) => `create schema ${quoteIdent(s.schema)}`,
  },
  drop_schema: {
    ...PLAIN,
    phase: () => 'prune_schemas', // no CASCADE: after everything in it, types too
    hazards: () => ['drops_data'], // its privileges, default privileges, comment
    object: (s) => schemaRef(s.schema),
    // No CASCADE: PostgreSQL refuses it if anything the plan does not drop is still in it.
    sql: (s) => [`DROP SCHEMA ${quoteIdent(s.schema)}`],
    summary: (s) => `drop schema ${quoteIdent(s.schema)} (prune)`,
  },
  create_sequence: {
    ...PLAIN,
    phase: () => 'sequences',
    hazards: () => [],
    object: (s) => sequenceRef(s.sequence.id),
    sql: (s) => [
      `CREATE ${s.sequence.unlogged ? 'UNLOGGED ' : ''}SEQUENCE ${q(s.sequence.qname)} ${createSequenceOptions(s.sequence)}`,
    ],
    summary: (s) =>
      `create ${s.sequence.unlogged ? 'unlogged ' : ''}sequence ${q(s.sequence.qname)} (${s.sequence.type}, cache ${s.sequence.cache})`,
  },
  alter_sequence_persistence: {
    ...PLAIN,
    phase: () => 'sequences',
    hazards: () => [],
    object: (s) => sequenceRef(s.sequence),
    sql: (s) => [`ALTER SEQUENCE ${q(s.sequence)} SET ${s.unlogged ? 'UNLOGGED' : 'LOGGED'}`],
    summary: (s) => `make sequence ${q(s.sequence)} ${s.unlogged ? 'unlogged' : 'logged'}`,
  },
  alter_sequence: {
    ...PLAIN,
    phase: () => 'tables',
    hazards: () => [],
    object: (s) => sequenceRef(s.sequence.id),
    sql: (s) => [
      `ALTER SEQUENCE ${q(s.sequence.qname)} ${[...alterSequenceOptions(s.sequence, s.from), ...(s.restart ? [`RESTART WITH ${sqlInt(effectiveBounds(s.sequence).start)}`] : [])].join(' ')}`,
    ],
    summary: (s) => alterSequenceSummary(s.sequence, s.from),
  },
  set_sequence_owner: {
    ...PLAIN,
    phase: () => 'tables',
    hazards: () => [],
    object: (s) => sequenceRef(s.sequence),
    sql: (s) => [`ALTER SEQUENCE ${q(s.sequence)} ${ownedBySql(s.owner)}`],
    summary: (s) =>
      s.owner
        ? `make sequence ${q(s.sequence)} owned by ${q(s.owner.table)}.${quoteIdent(s.owner.column)}`
        : `make sequence ${q(s.sequence)} owned by no column`,
  },
  alter_sequence_everywhere: {
    ...CITUS,
    phase: () => 'after_commit',
    hazards: () => ['non_transactional'],
    object: (s) => sequenceRef(s.sequence.id),
    sql: (s) => everywhere(`ALTER SEQUENCE ${q(s.sequence.qname)} CACHE ${sqlInt(s.sequence.cache)}`),
    summary: (s) =>
      `set cache ${s.sequence.cache} on distributed sequence ${q(s.sequence.qname)} on every node, outside the transaction`,
  },
  drop_sequence: {
    ...PLAIN,
    phase: () => 'prune',
    // Its current value is data: a sequence created again starts over and hands out used values.
    hazards: () => ['drops_data'],
    object: (s) => sequenceRef(s.sequence),
    sql: (s) => [`DROP SEQUENCE ${q(s.sequence)}`],
    summary: (s) => `drop sequence ${q(s.sequence)} (prune)`,
  },
};
