// The shipped JSON Schema is the one generated from the zod schema, and accepts the templates.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { manifestJsonSchema } from '../../src/manifest/json-schema.js';

describe('manifest JSON Schema', () => {
  it('is up to date (run npm run build && npm run schema)', () => {
    expect(JSON.parse(readFileSync('schema/manifest-v1.schema.json', 'utf8'))).toEqual(manifestJsonSchema());
  });

  it('describes strict objects and the version', () => {
    const s = manifestJsonSchema() as { properties: Record<string, { const?: number }>; additionalProperties: boolean; required: string[] };
    expect(s.additionalProperties).toBe(false);
    expect(s.required).toEqual(['version']);
    expect(s.properties.version!.const).toBe(1);
    for (const t of ['hammerdb', 'pgbench', 'saas']) {
      const doc = parse(readFileSync(`templates/${t}/citus-migrate.yaml`, 'utf8')) as Record<string, unknown>;
      for (const key of Object.keys(doc)) expect(Object.keys(s.properties)).toContain(key);
    }
  });
});
