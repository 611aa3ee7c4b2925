// The catalog query runs with search_path = public (so the catalog's printers leave public's names
// unqualified). A lower role that may create in public plants look-alike operators on every pair
// of argument types pg_catalog has no exact operator for: the query must bind none of them, on any
// branch, whatever rows the database holds (test/support/lookalikes.ts).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_SQL_CITUS, CATALOG_SQL_PLAIN } from '../../src/introspect/catalog-sql.js';
import { WORKER_ACLS_SQL } from '../../src/introspect/worker-acls.js';
import { citusServers, freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { bindings, plantOperatorLookalikes } from '../support/lookalikes.js';
import type { ServerInfo } from '../support/servers.js';

const QUERIES = { plain: CATALOG_SQL_PLAIN, citus: CATALOG_SQL_CITUS };

function suite(name: string, info: () => ServerInfo | null, query: string): void {
  describe.skipIf(!info())(`the catalog query (${name}) binds only pg_catalog's operators`, () => {
    let db: TestDb;
    let c: pg.Client;
    beforeAll(async () => {
      db = await freshDatabase(info()!, 'bind');
      c = new pg.Client({ connectionString: db.url });
      await c.connect();
      // Planted on the coordinator only: binding happens where the query is parsed.
      await c.query('SET citus.enable_ddl_propagation TO off').catch(() => undefined);
      expect(await plantOperatorLookalikes(c, [query], 'public')).toBeGreaterThan(1000);
    });
    afterAll(async () => {
      await c?.end();
    });

    it('under search_path = public, as catalog-query.ts runs it', async () => {
      expect(await bindings(c, query, 'public')).toEqual({ outside: [] });
    });
  });
}

suite('plain PostgreSQL', () => plainServers(), QUERIES.plain);
suite('Citus', () => citusServers(), QUERIES.citus);
// What each worker runs for its ACLs (introspect/worker-acls.ts), with public on its path too.
suite("a worker's ACLs", () => plainServers(), WORKER_ACLS_SQL);
