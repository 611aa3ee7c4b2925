// sqldef's psqldef test cases, all of them (issue #23; `npm run test:corpora`): each case's
// current -> desired as a schema change (test/support/sqldef.ts), classified and summarised.
// SQLDEF=name,name runs only those cases; SQLDEF_JSON=path writes the outcomes as JSON.
import { sqldefCases } from '../support/sqldef.js';
import { sqldefSuite } from '../support/sqldef-suite.js';

const { cases: all, missing } = sqldefCases();
const only = process.env.SQLDEF?.split(',').filter((n) => n !== '');
if (missing) process.stdout.write(`sqldef: skipped, ${missing} (the corpora are checked out beside the repository)\n`);
sqldefSuite('sqldef psqldef cases: current -> desired', only ? all.filter((c) => only.includes(c.name)) : all);
