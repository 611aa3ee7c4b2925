// A fixed-seed sample of sqldef's psqldef test cases (24 of 838) in `npm test`; all of them run
// in `npm run test:corpora` (test/corpora/sqldef.test.ts). Skips, saying so, without the corpus.
import { sampleCases, sqldefCases } from '../support/sqldef.js';
import { sqldefSuite } from '../support/sqldef-suite.js';

const { cases, missing } = sqldefCases();
if (missing)
  process.stdout.write(`sqldef sample: skipped, ${missing} (the corpora are checked out beside the repository)\n`);
sqldefSuite('sqldef psqldef cases: a fixed-seed sample of 24', sampleCases(cases, 24, 23));
