// The catalog query's two forms (Citus, plain) and the settings it runs under, on plain
// PostgreSQL: a session the tool opened knows from its probe which form answers, so no Citus
// query fails first; on any other session the Citus one fails and the plain one follows. Either
// way the session's own settings are as they were after it, also after a statement that failed.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { connectSession, sessionHasCitus } from '../../src/db/session.js';
import { queryCatalog, TOOL_PATH_PINS, withPins } from '../../src/introspect/catalog-query.js';

const open: pg.Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.end().catch(() => undefined)));
});

async function client(db: TestDb, probe: boolean): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: db.url });
  open.push(c);
  if (probe) await connectSession(c);
  else await c.connect();
  return c;
}

const settings = async (c: pg.Client): Promise<Record<string, string>> =>
  (
    await c.query<Record<string, string>>(
      "SELECT pg_catalog.current_setting('search_path') AS search_path, pg_catalog.current_setting('TimeZone') AS tz, pg_catalog.current_setting('jit') AS jit",
    )
  ).rows[0]!;

describe('the catalog query on plain PostgreSQL', () => {
  it('a session the tool opened knows it has no citus: the plain query goes out first, in one round trip', async () => {
    const db = await freshDatabase(plainServers(), 'fallback');
    const c = await client(db, true);
    expect(sessionHasCitus(c)).toBe(false);
    const answer = await queryCatalog(c);
    expect(answer.roundTrips).toBe(1);
    expect(answer.raw).toBeTypeOf('object');
  });

  it('another session: the Citus query fails, the plain one answers, and the settings are as they were', async () => {
    const db = await freshDatabase(plainServers(), 'fallback');
    const c = await client(db, false);
    expect(sessionHasCitus(c)).toBeUndefined();
    await c.query("SET search_path = app, public; SET TimeZone = 'Asia/Tokyo'; SET jit = on");
    const before = await settings(c);
    const answer = await queryCatalog(c);
    expect(answer.roundTrips).toBe(2);
    expect(answer.raw).toBeTypeOf('object');
    expect(await settings(c)).toEqual(before);
  });

  it("a pinned statement that fails leaves the session's search_path as it was (it was once left empty)", async () => {
    const db = await freshDatabase(plainServers(), 'fallback');
    const c = await client(db, true);
    await c.query('SET search_path = app, public');
    await expect(withPins(c, 'SELECT 1 / 0', TOOL_PATH_PINS)).rejects.toThrow(/division by zero/);
    expect((await settings(c)).search_path).toBe('app, public');
    // The same inside a transaction: its rollback undoes the pin.
    await c.query('BEGIN');
    await expect(withPins(c, 'SELECT 1 / 0', TOOL_PATH_PINS)).rejects.toThrow(/division by zero/);
    await c.query('ROLLBACK');
    expect((await settings(c)).search_path).toBe('app, public');
    // And a pinned statement that succeeds puts it back too.
    expect(
      await withPins<{ p: string }>(c, "SELECT pg_catalog.current_setting('search_path') AS p", TOOL_PATH_PINS),
    ).toEqual([{ p: 'pg_catalog, pg_temp' }]);
    expect((await settings(c)).search_path).toBe('app, public');
  });
});
