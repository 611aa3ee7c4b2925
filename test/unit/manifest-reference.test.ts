// docs/manifest.md is generated from the zod schema and lists every key; its example validates.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestReference, REFERENCE_EXAMPLE } from '../../src/manifest/reference.js';
import { manifestJsonSchema } from '../../src/manifest/json-schema.js';
import { loadManifest } from '../../src/manifest/load.js';

/** Every key the JSON Schema describes, wherever it is nested. */
function keys(s: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(s)) {
    for (const x of s) keys(x, out);
    return out;
  }
  if (!s || typeof s !== 'object') return out;
  const o = s as Record<string, unknown>;
  if (o.properties && typeof o.properties === 'object') for (const k of Object.keys(o.properties)) out.add(k);
  for (const v of Object.values(o)) keys(v, out);
  return out;
}

describe('docs/manifest.md', () => {
  it('is the reference generated from the schema (npm run docs)', () => {
    expect(readFileSync('docs/manifest.md', 'utf8')).toBe(manifestReference());
  });

  it('names every key, each with a description', () => {
    const doc = manifestReference();
    for (const k of keys(manifestJsonSchema())) expect(doc).toContain(`| \`${k}\` |`);
    expect(doc).not.toMatch(/\| \| *\n/); // no row without a meaning
  });

  it('has an example that validates', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-ref-'));
    mkdirSync(join(dir, 'routines'));
    mkdirSync(join(dir, 'sql'));
    writeFileSync(
      join(dir, 'routines', 'place_order.sql'),
      'CREATE PROCEDURE place_order(p_account bigint, p_plan text) LANGUAGE plpgsql AS $$ BEGIN INSERT INTO orders (account_id, plan) VALUES (p_account, p_plan); END $$;\n',
    );
    writeFileSync(
      join(dir, 'sql', 'views.sql'),
      'CREATE VIEW order_counts AS SELECT account_id, count(*) AS n FROM orders GROUP BY account_id;\n',
    );
    writeFileSync(join(dir, 'citus-migrate.yaml'), REFERENCE_EXAMPLE);
    const m = await loadManifest(join(dir, 'citus-migrate.yaml'));
    expect(Object.keys(m.desired.tables)).toEqual(['public.accounts', 'public.orders', 'public.plans']);
  });
});
