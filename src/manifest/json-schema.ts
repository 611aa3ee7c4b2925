// The JSON Schema editors use to validate manifests (`# yaml-language-server: $schema=...`),
// generated from the zod schema so the two cannot drift apart.
import { z } from 'zod';
import { manifestSchema } from './schema.js';

/** The manifest's JSON Schema (draft 2020-12), describing what a user writes. */
export function manifestJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(manifestSchema, {
    io: 'input',
    unrepresentable: 'any',
    // An integer past 2^53 (read as a bigint, yaml-numbers.ts) is an integer to an editor.
    // A default over a transform (exact integers) is left out by zod for the input side: kept.
    override: (ctx) => {
      const def = (ctx.zodSchema as unknown as { _zod: { def: { type: string; defaultValue?: unknown } } })._zod.def;
      if (def.type === 'bigint') ctx.jsonSchema.type = 'integer';
      if (def.type === 'default' && ctx.jsonSchema.default === undefined) ctx.jsonSchema.default = def.defaultValue;
    },
  }) as Record<string, unknown>;
  return {
    ...schema,
    $id: 'https://citus-migrate.dev/schema/manifest-v1.schema.json',
    title: 'citus-migrate manifest, format version 1',
  };
}
