// All of the schema-change corpus (test/support/corpus-suite.ts) on plain PostgreSQL, concurrently
// (`npm test` runs a fixed-seed sample of it, on Citus too: integration/corpus.test.ts).
// CORPUS=612,613-… runs the cases whose names start so.
import { corpusCases, corpusSuite } from '../support/corpus-suite.js';

const only = process.env.CORPUS?.split(',').filter((n) => n !== '');
const cases = only ? corpusCases.filter((c) => only.some((n) => c.name.startsWith(n))) : corpusCases;
corpusSuite(
  `schema-change corpus on plain PostgreSQL: ${only ? `${cases.length} of` : 'all'} ${corpusCases.length} cases`,
  cases,
);
