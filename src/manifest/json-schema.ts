// The JSON Schema editors use to validate manifests (`# yaml-language-server: $schema=...`),
// generated from the zod schema so the two cannot drift apart.
import { z } from 'zod';
import { manifestSchema } from './schema.js';

/** The manifest's JSON Schema (draft 2020-12), describing what a user writes. */
export function manifestJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(manifestSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    ...schema,
    $id: 'https://citus-migrate.dev/schema/manifest-v1.schema.json',
    title: 'citus-migrate manifest, format version 1',
  };
}
