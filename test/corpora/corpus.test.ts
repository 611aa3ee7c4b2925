// All of the schema-change corpus (test/support/corpus-suite.ts) on plain PostgreSQL, concurrently
// (`npm test` runs a fixed-seed sample of it, on Citus too: integration/corpus.test.ts).
import { corpusCases, corpusSuite } from '../support/corpus-suite.js';

corpusSuite(`schema-change corpus on plain PostgreSQL: all ${corpusCases.length} cases`, corpusCases);
