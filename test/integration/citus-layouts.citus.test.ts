// The Citus layouts that matter most to users, from the layouts corpus (issue #24; the whole
// corpus runs in `npm run test:corpora`): each built with Citus's own regression SQL, read at test
// time from a fetched citusdata/citus (CITUS_REPO; skipped with one line when absent), is rebuilt
// exactly by introspect + apply: the same Citus metadata, pg_dump and empty plans on both sides,
// and `plan --shards` finds nothing on either.
import { describe, expect, it } from 'vitest';
import { citusRepoMissing, layoutList, runLayout } from '../support/citus-layouts.js';
import { citusServers, type TestDb } from '../support/db.js';
import { dropAll } from '../support/real-schemas.js';

const citus = citusServers();
const missing = citusRepoMissing();
if (citus && missing) process.stdout.write(`citus-layouts: skipped, ${missing}\n`);

const MOST_USED = [
  'function-force-delegation',
  'schema-sharding-renamed',
  'time-partitions-dist',
  'citus-local-cascade',
  'reference-fk-chain',
];

describe.skipIf(!citus || missing !== '')('Citus layouts built by Citus regression SQL', () => {
  const entries = layoutList().layouts.filter((l) => MOST_USED.includes(l.name));
  it.each(entries.map((e) => [e.name, e] as const))('%s is rebuilt exactly', async (_name, entry) => {
    const made: TestDb[] = [];
    try {
      const o = await runLayout(entry, citus!, made);
      expect({ klass: o.klass, reason: o.reason, shardFindings: o.shardFindings }).toEqual({
        klass: 'exact',
        reason: '',
        shardFindings: [],
      });
    } finally {
      await dropAll(citus!, made);
    }
  });
});
