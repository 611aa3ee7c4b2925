// PostgreSQL's own regression SQL as a corpus (issue #40; `npm run test:pg-regress`, not part of
// `npm test`): each file of PostgreSQL 15's src/test/regress/sql, read at test time (see
// support/pg-regress.ts), runs after test_setup in a fresh database of a server of its own; the
// database is adopted with introspect, applied to an empty one and compared object by object.
// The run reports per file and per kind of object; it fails only when the CLI crashes.
// PG_REGRESS=a,b runs only those files; PG_REGRESS_JSON=path writes the outcomes.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPgInstall, startLocalCluster, type LocalCluster } from '../../src/cluster/local.js';
import { sql, type TestDb } from '../support/db.js';
import {
  dropSharedLeftovers,
  pgRegressFiles,
  pgRegressMissing,
  runRegressFile,
  type RegressOutcome,
} from '../support/pg-regress.js';
import { pgRegressTable } from '../support/pg-regress-table.js';
import { crashes, dropAll } from '../support/real-schemas.js';
import type { ServerInfo } from '../support/servers.js';

const missing = pgRegressMissing();
const install = findPgInstall();
const why = missing || (install ? '' : 'no PostgreSQL server binaries');
if (why) process.stdout.write(`pg-regress: skipped, ${why}\n`);
const only = process.env.PG_REGRESS?.split(',').filter((n) => n !== '');
const files = why ? [] : pgRegressFiles().filter((n) => !only || only.includes(n));

describe.skipIf(why !== '')('PostgreSQL regression SQL: adopt, apply, compare per kind', () => {
  let server: LocalCluster | undefined;
  let info: ServerInfo;
  let roles: Set<string>;
  const outcomes: RegressOutcome[] = [];
  const started = performance.now();
  beforeAll(async () => {
    server = await startLocalCluster({ citus: false, install: install!, maxConnections: 200 });
    info = { user: 'postgres', citus: false, nodes: [{ host: '127.0.0.1', port: server.coordinator.port }] };
    const rows = await sql<{ rolname: string }>(info, 'postgres', 'SELECT rolname FROM pg_catalog.pg_roles');
    roles = new Set(rows.map((r) => r.rolname));
  }, 180_000);
  afterAll(async () => {
    const seconds = Math.round((performance.now() - started) / 1000);
    const sorted = [...outcomes].sort((a, b) => a.schema.localeCompare(b.schema));
    process.stdout.write(`\npg-regress (${outcomes.length} files, ${seconds} s):\n\n${pgRegressTable(sorted)}\n`);
    const out = process.env.PG_REGRESS_JSON;
    if (out) writeFileSync(out, `${JSON.stringify({ seconds, outcomes: sorted }, null, 2)}\n`);
    await server?.stop();
  }, 180_000);

  it.each(files)('%s', async (name) => {
    const made: TestDb[] = [];
    try {
      const o = await runRegressFile(name, info, made, { libdir: install!.pkglibdir });
      outcomes.push(o);
      expect(crashes(o), `${name} crashed the CLI`).toEqual([]);
    } finally {
      await dropAll(info, made);
      await dropSharedLeftovers(info, roles);
    }
  });
});
