// Citus layouts corpus (issue #24; `npm run test:corpora`, not part of `npm test`): every layout
// of test/citus-layouts/layouts.json, built from Citus's regression SQL read at test time from a
// fetched citusdata/citus (CITUS_REPO), is adopted, applied to an empty database and compared
// (support/citus-layouts.ts). Runs on its own coordinator + 2 workers (or CITUS_MIGRATE_TEST_URL's
// cluster). Fails on a crash, and on a silent difference not in KNOWN_SILENT below.
// CITUS_LAYOUTS=a,b runs only those; CITUS_LAYOUTS_JSON=path writes the outcomes.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPgInstall, startLocalCluster, type LocalCluster } from '../../src/cluster/local.js';
import {
  citusRepoMissing,
  layoutList,
  layoutsTable,
  runLayout,
  serverInfoFromUrl,
  type LayoutOutcome,
} from '../support/citus-layouts.js';
import { dropAll } from '../support/real-schemas.js';
import type { TestDb } from '../support/db.js';
import type { ServerInfo } from '../support/servers.js';

// Layouts that end silent, rejected or refused today (the reason), each to be fixed or named.
// Keep it exact: a listed layout that ends otherwise fails the run until it is removed from here.
const KNOWN = new Map<string, string>([]);

const missing = citusRepoMissing();
const install = findPgInstall();
const noCitus =
  !process.env.CITUS_MIGRATE_TEST_URL && !install?.hasCitus ? 'no Citus binaries and no CITUS_MIGRATE_TEST_URL' : '';
if (missing || noCitus) process.stdout.write(`citus-layouts: skipped, ${missing || noCitus}\n`);
const only = process.env.CITUS_LAYOUTS?.split(',').filter((n) => n !== '');
const layouts = layoutList().layouts.filter((l) => !only || only.includes(l.name));

describe.skipIf(missing !== '' || noCitus !== '')(
  'Citus layouts from Citus regression SQL: adopt, apply, compare',
  () => {
    let cluster: LocalCluster | undefined;
    let info: ServerInfo;
    const outcomes: LayoutOutcome[] = [];
    const started = performance.now();
    beforeAll(async () => {
      const url = process.env.CITUS_MIGRATE_TEST_URL;
      if (url) info = await serverInfoFromUrl(url);
      else {
        cluster = await startLocalCluster({ citus: true, workers: 2, install: install!, maxConnections: 300 });
        info = {
          user: 'postgres',
          citus: true,
          nodes: [cluster.coordinator, ...cluster.workers].map((n) => ({ host: '127.0.0.1', port: n.port })),
        };
      }
    }, 180_000);
    afterAll(async () => {
      const seconds = Math.round((performance.now() - started) / 1000);
      process.stdout.write(
        `\ncitus-layouts (${outcomes.length} layouts, ${seconds} s):\n\n${layoutsTable(outcomes)}\n`,
      );
      const out = process.env.CITUS_LAYOUTS_JSON;
      if (out) writeFileSync(out, `${JSON.stringify({ seconds, outcomes }, null, 2)}\n`);
      await cluster?.stop();
    }, 180_000);

    it.each(layouts.map((l) => [l.name, l] as const))('%s', async (_name, entry) => {
      const made: TestDb[] = [];
      try {
        const o = await runLayout(entry, info, made);
        outcomes.push(o);
        expect(o.klass === 'crash' ? o.reason : '', `${entry.name} crashed the CLI`).toBe('');
        expect(o.shardFindings ?? [], `plan --shards on ${entry.name} as Citus built it`).toEqual([]);
        const bad = o.klass === 'silent' || o.klass === 'rejected' || o.klass === 'refused';
        if (KNOWN.has(entry.name))
          expect(bad ? '' : o.klass, `${entry.name} is listed (${KNOWN.get(entry.name)}) but ends ${o.klass}`).toBe('');
        else expect(bad ? `${o.klass}: ${o.reason}` : '', `${entry.name} ends ${o.klass}`).toBe('');
      } finally {
        await dropAll(info, made);
      }
    });
  },
);
