// A fixed-seed sample of the schema-change corpus (test/support/corpus-suite.ts) in `npm test`:
// 100 of its cases on plain PostgreSQL, 10 on Citus; `npm run test:corpora` runs all of them.
import { corpusCases, corpusCitusSuite, corpusSuite } from '../support/corpus-suite.js';
import { sampleCases } from '../support/sqldef.js';

const sample = sampleCases(corpusCases, 40, 29).sort((a, b) => a.name.localeCompare(b.name));
corpusSuite(`schema-change corpus on plain PostgreSQL: a fixed-seed sample of ${sample.length}`, sample);
// Setting up databases concurrently on a cluster is fragile: one at a time. Tables stay local
// there: Citus's own objects must neither be named nor planned, and what converges on PostgreSQL
// converges on a coordinator too.
corpusCitusSuite(
  'schema-change corpus on Citus: a fixed-seed sample of 6, one at a time',
  sampleCases(corpusCases, 6, 31).sort((a, b) => a.name.localeCompare(b.name)),
);
