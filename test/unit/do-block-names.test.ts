// The DO blocks the tool writes name every function, type and relation with its schema, inside
// the block too: their PL/pgSQL statements, expressions and variables read with PL/pgSQL's own
// compiler (test/support/sql-audit.ts), as the hostile-role tests read every other statement.
import { describe, expect, it } from 'vitest';
import { unqualifiedNames } from '../support/sql-audit.js';
import { waitForSplitWritersSql } from '../../src/plan/split-writers.js';
import { fillSql } from '../../src/plan/fill.js';
import { pauseTriggersSql, RESUME_TRIGGERS_SQL } from '../../src/plan/checks/paused-triggers.js';
import { onWorkers } from '../../src/plan/steps/sql-parts.js';

const t = { schema: 'app', name: 't' };
const pub = { schema: 'public', name: 'orders' };

describe('the DO blocks the tool writes', () => {
  it.each([
    ['the wait for older writers before a shard split', waitForSplitWritersSql(t)],
    ['the fill of a column per shard', fillSql(pub, 'c2 = c', 'c2 IS NULL', true)],
    ['the fill of a local table', fillSql(t, 'c2 = c', 'c2 IS NULL', false)],
    ['the pause of triggers', pauseTriggersSql(t)[1]!],
    ['their resumption', RESUME_TRIGGERS_SQL],
    [
      'a block sent to the workers',
      onWorkers(['SET LOCAL search_path TO pg_catalog', 'GRANT USAGE ON LANGUAGE plpgsql TO r']),
    ],
  ])('%s', async (_what, sql) => {
    expect(await unqualifiedNames(sql)).toEqual([]);
  });

  it('are read inside: a name without its schema in a block is found', async () => {
    expect(
      await unqualifiedNames(
        'DO $b$ DECLARE d timestamptz := clock_timestamp(); n pg_catalog.int4; BEGIN SELECT pg_catalog.count(*) INTO n FROM citus_locks; IF now() > d THEN PERFORM pg_catalog.pg_sleep(0.1); END IF; END $b$',
      ),
    ).toEqual([
      'function clock_timestamp (in a DO block)',
      'function now (in a DO block)',
      'relation citus_locks (in a DO block)',
      'type timestamptz (in a DO block)',
    ]);
  });
});
