// The round trip of an adopted database, for tests of one layout: introspect --out (nothing left
// out), the plan against the database it came from empty (unmanaged and not managed included),
// --prove on an empty copy, apply there, pg_dump of both equal, and the copy's plan empty.
import { expect } from 'vitest';
import { freshDatabase, type TestDb } from './db.js';
import { schemaDump } from './dump.js';
import { projectDir } from './project.js';
import { cli } from './run-cli.js';
import type { ServerInfo } from './servers.js';

/** Runs the round trip from `original`; returns the copy and what --prove printed (the plan's steps). */
export async function adoptAndRebuild(
  info: ServerInfo,
  original: TestDb,
  copyPrefix: string,
): Promise<{ copy: TestDb; proved: string }> {
  const dir = projectDir({});
  const intro = await cli(['introspect', '--database', original.url, '-o', 'citus-migrate.yaml'], { cwd: dir });
  expect(intro.code, intro.stderr).toBe(0);
  expect(intro.stderr).not.toContain('left out');
  const self = await cli(['plan', '--database', original.url, '--detailed-exitcode', '--include-unmanaged'], {
    cwd: dir,
  });
  expect(self.code, self.stdout + self.stderr).toBe(0);
  const copy = await freshDatabase(info, copyPrefix);
  const proved = await cli(['plan', '--database', copy.url, '--prove'], { cwd: dir });
  expect(proved.stdout).toContain('applied, and planning again was empty; the copy planned the same');
  const r = await cli(['apply', '--database', copy.url, '--auto-approve'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(schemaDump(copy)).toEqual(schemaDump(original));
  expect((await cli(['plan', '--database', copy.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  return { copy, proved: proved.stdout };
}
