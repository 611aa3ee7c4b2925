// The shipped JSON Schema is the one generated from the zod schema (what it says is zod's to get right).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { manifestJsonSchema } from '../../src/manifest/json-schema.js';

describe('manifest JSON Schema', () => {
  it('is up to date (npm run docs)', () => {
    expect(JSON.parse(readFileSync('schema/manifest-v1.schema.json', 'utf8'))).toEqual(manifestJsonSchema());
  });
});
