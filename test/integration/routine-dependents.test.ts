// A routine dropped and created again (its argument names or result type change) that a range
// type depends on: PostgreSQL refuses the DROP while the type exists, and the plan cannot drop the
// type around it, so the plan names it as a problem and apply runs nothing. An aggregate (of *
// too) is dropped and created again around it (test/corpus/492-aggregate-sfunc-replaced).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const CASES = {
  'range type': {
    old: `CREATE SCHEMA app;
CREATE FUNCTION app.fdiff(a float8, b float8) RETURNS float8 LANGUAGE sql IMMUTABLE AS $$ SELECT a - b $$;
CREATE TYPE app.fr AS RANGE (subtype = float8, subtype_diff = app.fdiff);`,
    new: `CREATE SCHEMA app;
CREATE FUNCTION app.fdiff(x float8, y float8) RETURNS float8 LANGUAGE sql IMMUTABLE AS $$ SELECT x - y $$;
CREATE TYPE app.fr AS RANGE (subtype = float8, subtype_diff = app.fdiff);`,
    dependent: 'type app.fr',
  },
};

describe('a routine dropped and created again under what citus-migrate does not manage', () => {
  it.concurrent.each(Object.entries(CASES))('%s: a plan problem, and apply runs nothing', async (_kind, c) => {
    const src = await freshDatabase(plainServers(), 'rd_new');
    expect(src.psql({ input: c.new }).status).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'cm-rdep-'));
    const file = join(dir, 'citus-migrate.yaml');
    expect((await cli(['introspect', '--database', src.url, '--out', file])).code).toBe(0);
    const doc = parseDocument(readFileSync(file, 'utf8'));
    doc.set('prune', true);
    writeFileSync(file, doc.toString({ lineWidth: 0 }));
    const db = await freshDatabase(plainServers(), 'rd_old');
    expect(db.psql({ input: c.old }).status).toBe(0);
    const plan = JSON.parse((await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir })).stdout) as {
      problems: { code: string; message: string }[];
    };
    expect(plan.problems.map((p) => p.code)).toEqual(['routine_has_dependents']);
    expect(plan.problems[0]!.message).toContain(`${c.dependent} depends on it`);
    const apply = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir });
    expect(apply.code).not.toBe(0);
    expect(apply.stderr).toContain('nothing was run');
  });
});

describe('a routine dropped and created again under an aggregate of *', () => {
  it('the aggregate is dropped and created again around it: applied, and the next plan is empty', async () => {
    const src = await freshDatabase(plainServers(), 'rd_agg_new');
    expect(
      src.psql({
        input: `CREATE SCHEMA app;
CREATE FUNCTION app.acc(t bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT t + 1 $$;
CREATE AGGREGATE app.total(*) (sfunc = app.acc, stype = bigint, initcond = '0');`,
      }).status,
    ).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'cm-rdep-'));
    expect((await cli(['introspect', '--database', src.url, '--out', join(dir, 'citus-migrate.yaml')])).code).toBe(0);
    const db = await freshDatabase(plainServers(), 'rd_agg_old');
    expect(
      db.psql({
        input: `CREATE SCHEMA app;
CREATE FUNCTION app.acc(s bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT s + 1 $$;
CREATE AGGREGATE app.total(*) (sfunc = app.acc, stype = bigint, initcond = '0');`,
      }).status,
    ).toBe(0);
    const apply = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir });
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });
});
