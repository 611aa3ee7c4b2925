// Acceptance over real application schemas (issue #23; `npm run test:corpora`, not part of
// `npm test`): each of ../shared/corpora/real-schemas/<name>/schema.sql is loaded, adopted with
// introspect, planned against itself, applied to an empty database, and compared by pg_dump.
// The run reports every schema; it fails only when the CLI crashes (an unexpected exception), so
// it can hold the line in CI while the schemas it does not adopt yet are worked through.
// REAL_SCHEMAS_JSON=path also writes the outcomes as JSON; REAL_SCHEMAS=a,b runs only those;
// REAL_SCHEMAS_DUMPS=dir keeps both normalised dumps of each schema that applied.
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { plainServers, type TestDb } from '../support/db.js';
import { crashes, dropAll, realSchemas, runRealSchema, type SchemaOutcome } from '../support/real-schemas.js';
import { realSchemasTable } from '../support/real-schemas-table.js';

const { names: all, missing } = realSchemas();
const only = process.env.REAL_SCHEMAS?.split(',').filter((n) => n !== '');
const names = only ? all.filter((n) => only.includes(n)) : all;
if (missing)
  process.stdout.write(`real-schemas: skipped, ${missing} (the corpora are checked out beside the repository)\n`);

describe.skipIf(names.length === 0)('real application schemas: adopt, apply, compare', () => {
  const outcomes: SchemaOutcome[] = [];
  const started = performance.now();
  afterAll(async () => {
    const seconds = Math.round((performance.now() - started) / 1000);
    process.stdout.write(
      `\nreal-schemas (${outcomes.length} schemas, ${seconds} s):\n\n${realSchemasTable([...outcomes].sort((a, b) => a.schema.localeCompare(b.schema)))}\n`,
    );
    const out = process.env.REAL_SCHEMAS_JSON;
    if (out) writeFileSync(out, `${JSON.stringify({ seconds, outcomes }, null, 2)}\n`);
  });

  // One at a time: the large files load for minutes, and two cores are all CI has.
  it.each(names)('%s', async (name) => {
    const made: TestDb[] = [];
    try {
      const o = await runRealSchema(name, plainServers(), made);
      outcomes.push(o);
      expect(crashes(o), `${name} crashed the CLI`).toEqual([]);
    } finally {
      await dropAll(plainServers(), made);
    }
  });
});
