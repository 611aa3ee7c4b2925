// What two corpora showed dropped without a word: a comment on an aggregate, a comment on a rule
// (now managed: introspected into sql/comments.sql, created after their object, planned empty) and
// a trigger's DEPENDS ON EXTENSION (now part of the trigger: ALTER TRIGGER … DEPENDS ON EXTENSION
// after its CREATE TRIGGER, built again on a copy, and a trigger without it is a change).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { schemaDump } from '../support/dump.js';
import { cli } from '../support/run-cli.js';

const server = plainServers();

describe('nothing dropped without a word', () => {
  it('comments on an aggregate and a rule round-trip, and a trigger depending on an extension', async () => {
    const db = await freshDatabase(server, 'named_comments');
    for (const s of [
      'CREATE TABLE t (a int)',
      'CREATE AGGREGATE mysum(int) (SFUNC = int4pl, STYPE = int)',
      "COMMENT ON AGGREGATE mysum(int) IS 'adds'",
      'CREATE RULE no_negatives AS ON INSERT TO t WHERE a < 0 DO INSTEAD NOTHING',
      "COMMENT ON RULE no_negatives ON t IS 'drops them'",
    ])
      await db.query(s);
    const dir = projectDir({});
    expect((await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: dir })).code).toBe(0);
    const self = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], { cwd: dir });
    expect(self.code, self.stdout).toBe(0);
    const copy = await freshDatabase(server, 'named_comments_copy');
    const r = await cli(['apply', '--database', copy.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(schemaDump(copy)).toEqual(schemaDump(db));

    await db.query('CREATE EXTENSION IF NOT EXISTS hstore');
    await db.query("CREATE FUNCTION tf() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END'");
    await db.query('CREATE TRIGGER tg BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION tf()');
    await db.query('ALTER TRIGGER tg ON t DEPENDS ON EXTENSION hstore');
    const again = projectDir({});
    expect((await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: again })).code).toBe(0);
    expect(readFileSync(join(again, 'sql', 'triggers.sql'), 'utf8')).toContain(
      'ALTER TRIGGER tg ON public.t DEPENDS ON EXTENSION hstore;',
    );
    const copy2 = await freshDatabase(server, 'named_comments_copy2');
    const r2 = await cli(['apply', '--database', copy2.url, '--auto-approve', '--allow-hazards', 'all'], {
      cwd: again,
    });
    expect(r2.code, r2.stdout + r2.stderr).toBe(0);
    expect(schemaDump(copy2)).toEqual(schemaDump(db));
    expect((await cli(['plan', '--database', copy2.url, '--detailed-exitcode'], { cwd: again })).code).toBe(0);
    // The dependency gone from the cluster: the plan makes the trigger again with it.
    await copy2.query('ALTER TRIGGER tg ON t NO DEPENDS ON EXTENSION hstore');
    const drift = await cli(['plan', '--database', copy2.url, '--detailed-exitcode'], { cwd: again });
    expect(drift.code, drift.stdout).toBe(2);
    expect(drift.stdout).toContain('public.t.tg');
  });
});
