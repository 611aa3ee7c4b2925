// Writes what is generated from the zod schema: schema/manifest-v1.schema.json and
// docs/manifest.md (npm run schema, npm run docs: the same two files).
import { writeFileSync } from 'node:fs';
import { manifestJsonSchema } from '../manifest/json-schema.js';
import { manifestReference } from '../manifest/reference.js';

writeFileSync(
  new URL('../../schema/manifest-v1.schema.json', import.meta.url),
  `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`,
);
writeFileSync(new URL('../../docs/manifest.md', import.meta.url), manifestReference());
