// The transaction's statements in batches (src/apply/batch.ts), on a real PostgreSQL: the server's
// replies name the statement a failure stopped at, with or without an error position, and the
// statements after it do not run; through the CLI, the failing step and its caret are exact in
// the middle of a batch.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchFailure, BatchMismatch, runBatch } from '../../src/apply/batch.js';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { cli } from '../support/run-cli.js';

describe('batched statements (plain PostgreSQL)', () => {
  let db: TestDb;
  let client: pg.Client;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'batch');
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterEach(async () => {
    await client.end();
  });

  /** Runs the batch in a transaction; the failure (index, sqlstate, position) and what completed. */
  async function run(statements: string[]) {
    const completed: number[] = [];
    await client.query('BEGIN');
    try {
      await runBatch(client, statements, (i) => completed.push(i));
      await client.query('COMMIT');
      return { completed };
    } catch (e) {
      await client.query('ROLLBACK');
      expect(e).toBeInstanceOf(BatchFailure);
      const f = e as BatchFailure;
      const cause = f.cause as { code: string; position?: string; message: string };
      return { completed, index: f.index, code: cause.code, position: cause.position, message: cause.message };
    }
  }

  it('reports each statement done, in order, and runs them all', async () => {
    const r = await run([
      'CREATE TABLE a (x int)',
      'INSERT INTO a VALUES (1) -- a comment at the end',
      'SELECT x FROM a',
    ]);
    expect(r).toEqual({ completed: [0, 1, 2] });
    expect(await db.query('SELECT x FROM a')).toEqual([{ x: 1 }]);
  });

  it('a failure without a position: the statement after those completed; none after it ran', async () => {
    const r = await run(['CREATE TABLE a (x int)', 'CREATE TABLE b (y int)', 'SELECT 1 / 0', 'CREATE TABLE c (z int)']);
    expect(r).toMatchObject({ completed: [0, 1], index: 2, code: '22012', position: undefined });
    expect(await db.query("SELECT count(*)::int AS n FROM pg_class WHERE relname IN ('a', 'b', 'c')")).toEqual([
      { n: 0 },
    ]);
  });

  it('a failure with a position: that statement, the position its own (characters, as PostgreSQL counts them)', async () => {
    const r = await run([
      "COMMENT ON SCHEMA public IS '🐘 two UTF-16 units, one character'",
      'CREATE TABLE a (x int)',
      'SELECT x,\n  nope FROM a',
      'CREATE TABLE c (z int)',
    ]);
    expect(r).toMatchObject({ completed: [0, 1], index: 2, code: '42703' });
    // 'nope' starts at character 13 of its own statement.
    expect(r.position).toBe('13');
  });

  it('a syntax error stops the whole message before any statement runs: named by its position', async () => {
    const r = await run(['CREATE TABLE a (x int)', 'CREATE TABLE b (y int)', 'CREATE TABLE c (z int']);
    expect(r).toMatchObject({ completed: [], index: 2, code: '42601' });
    expect(await db.query("SELECT count(*)::int AS n FROM pg_class WHERE relname IN ('a', 'b')")).toEqual([{ n: 0 }]);
  });

  it('all ran, but the server counted other statements than were sent: refused as a mismatch, not trusted', async () => {
    await client.query('BEGIN');
    const done: number[] = [];
    const err = await runBatch(client, ['SELECT 1; SELECT 2', 'SELECT 3'], (i) => done.push(i)).catch(
      (e: unknown) => e,
    );
    await client.query('ROLLBACK');
    expect(err).toBeInstanceOf(BatchMismatch);
    expect(err).toMatchObject({ sent: 2, reported: 3 });
    expect((err as Error).message).toBe('the server ran 3 statements of a batch of 2');
  });

  it('apply names the failing step in the middle of a batch, with the caret in its own statement', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cm-batch-'));
    const tables = Array.from({ length: 5 }, (_, i) =>
      [
        `  t${i}:`,
        '    local: true',
        `    columns: { id: { type: bigint, not_null: true }, v: { type: integer, default: "${i === 3 ? 'no_such_function(1)' : '0'}" } }`,
        '    primary_key: [id]',
      ].join('\n'),
    );
    writeFileSync(join(cwd, 'citus-migrate.yaml'), `version: 1\ntables:\n${tables.join('\n')}\n`);
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      [
        'error: apply failed at step 4: create table public.t3 (2 columns)',
        '  ERROR 42883: function no_such_function(integer) does not exist',
      ].join('\n'),
    );
    expect(r.stderr).toContain(
      [
        '    CREATE TABLE public.t3 (',
        '        id bigint NOT NULL,',
        '        v integer DEFAULT no_such_function(1),',
        '                          ^',
      ].join('\n'),
    );
    expect(r.stderr).toContain('nothing was applied: the transaction was rolled back');
    expect(await db.query("SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE 't_'")).toEqual([{ n: 0 }]);
  });
});
