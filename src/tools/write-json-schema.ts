// Writes schema/manifest-v1.schema.json from the zod schema (npm run schema).
import { writeFileSync } from 'node:fs';
import { manifestJsonSchema } from '../manifest/json-schema.js';

writeFileSync(new URL('../../schema/manifest-v1.schema.json', import.meta.url), `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`);
