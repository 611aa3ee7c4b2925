// What apply and plan say about roles that may write the tool's own tables, and the REVOKE
// statements they print: exact text, from rows as the writers query returns them.
import { describe, expect, it } from 'vitest';
import { describeHolders, type LockHolder } from '../../src/db/lock-holders.js';
import { revokeStatements, writerLines, type OwnWriter } from '../../src/own/own-writers.js';
import { formatDuration } from '../../src/util/duration.js';

const w = (x: Partial<OwnWriter> & Pick<OwnWriter, 'role' | 'relation'>): OwnWriter => ({
  sequence: false,
  privileges: ['INSERT', 'UPDATE', 'DELETE'],
  direct: false,
  via: [],
  members: [],
  ...x,
});

const WRITERS: OwnWriter[] = [
  w({ role: 'PUBLIC', relation: 'schema_migrations', privileges: ['TRUNCATE'], direct: 'table' }),
  w({ role: 'etl', relation: 'applies', via: ['pg_write_all_data'] }),
  w({ role: 'etl', relation: 'object_state', via: ['pg_write_all_data'] }),
  w({ role: 'etl', relation: 'applies_id_seq', sequence: true, privileges: ['UPDATE'], via: ['pg_write_all_data'] }),
  w({ role: 'Odd "name"', relation: 'object_state', privileges: ['UPDATE'], direct: 'column' }),
  w({ role: 'pg_write_all_data', relation: 'applies', members: ['etl', 'loader'] }),
  w({
    role: 'owner_member',
    relation: 'applies',
    privileges: ['TRIGGER'],
    direct: 'table',
    via: ['pg_database_owner'],
  }),
];

describe('roles that may write citus_migrate', () => {
  it('one line per role and way it came to its privileges, relations with the same privileges together', () => {
    expect(writerLines(WRITERS, 'citus_migrate')).toEqual([
      'PUBLIC holds TRUNCATE on citus_migrate.schema_migrations (granted to PUBLIC on the table)',
      'role etl holds INSERT, UPDATE, DELETE on citus_migrate.applies, citus_migrate.object_state (as a member of pg_write_all_data)',
      'role etl holds UPDATE on citus_migrate.applies_id_seq (as a member of pg_write_all_data)',
      'role Odd "name" holds UPDATE on citus_migrate.object_state (granted on its columns)',
      'role pg_write_all_data holds INSERT, UPDATE, DELETE on citus_migrate.applies (and is granted to etl, loader)',
      'role owner_member holds TRIGGER on citus_migrate.applies (granted on the table; as a member of pg_database_owner)',
    ]);
  });

  it('each REVOKE once, names quoted, a role taken from all its members in one statement; never pg_database_owner', () => {
    expect(revokeStatements(WRITERS, 'citus_migrate')).toEqual([
      'REVOKE TRUNCATE ON TABLE citus_migrate.schema_migrations FROM PUBLIC;',
      'REVOKE UPDATE ON TABLE citus_migrate.object_state FROM "Odd ""name""";',
      'REVOKE TRIGGER ON TABLE citus_migrate.applies FROM owner_member;',
      'REVOKE pg_write_all_data FROM etl, loader;',
    ]);
  });
});

describe('lock holders', () => {
  const h = (x: Partial<LockHolder>): LockHolder => ({
    pid: 42,
    role: 'etl',
    app: 'psql',
    since: '2025-01-02 03:04:05+00',
    inTransaction: true,
    state: 'idle in transaction',
    ...x,
  });
  it('a session once, with every lock it holds; none found is said so', () => {
    expect(
      describeHolders([
        h({ relation: 'citus_migrate.applies', mode: 'AccessExclusiveLock' }),
        h({ relation: 'citus_migrate.object_state', mode: 'RowExclusiveLock' }),
        h({ pid: 7, role: 'postgres', app: '', inTransaction: false, state: 'idle', since: '2025-01-01 00:00:00+00' }),
      ]),
    ).toBe(
      'backend 42 (role etl, application "psql", in a transaction since 2025-01-02 03:04:05+00, idle in transaction; AccessExclusiveLock on citus_migrate.applies, RowExclusiveLock on citus_migrate.object_state) and backend 7 (role postgres, application (none), connected since 2025-01-01 00:00:00+00, idle)',
    );
    expect(describeHolders([])).toBe('a session not found');
  });

  it('durations as a flag gives them', () => {
    expect([formatDuration(2000), formatDuration(1500), formatDuration(300), formatDuration(60_000)]).toEqual([
      '2s',
      '1.5s',
      '300ms',
      '60s',
    ]);
  });
});
