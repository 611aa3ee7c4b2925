// Foreign servers and foreign tables on Citus: file_fdw's extension, a server and a foreign table
// declared in the sql: files apply in the plan's transaction (Citus propagates the extension and
// the server to the workers), plan empty, and are read back by introspect, the foreign table's
// CHECK as a constraint of its own, the server's grant (which Citus propagates) among the privileges.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const OBJECTS = `CREATE EXTENSION IF NOT EXISTS file_fdw;
CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE app.imports (id bigint NOT NULL, name text, qty integer DEFAULT 1) SERVER files OPTIONS (filename '/dev/null', format 'csv');
ALTER TABLE app.imports ADD CONSTRAINT qty_positive CHECK (qty > 0);
COMMENT ON FOREIGN TABLE app.imports IS 'read from a file';
GRANT USAGE ON FOREIGN SERVER files TO PUBLIC;
`;

describe.skipIf(!citus)('foreign servers and tables on Citus', () => {
  it('apply, reach the workers (the server), plan empty and read back', async () => {
    const db = await freshDatabase(citus!, 'ftab');
    await db.query('CREATE SCHEMA app');
    const dir = mkdtempSync(join(tmpdir(), 'cm-ftab-'));
    mkdirSync(join(dir, 'sql'));
    writeFileSync(join(dir, 'citus-migrate.yaml'), 'version: 1\nsql: [sql]\n');
    writeFileSync(join(dir, 'sql', 'foreign.sql'), OBJECTS);
    const apply = await cli(
      ['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'creates_extension,public_privileges'],
      {
        cwd: dir,
      },
    );
    expect(apply.code, apply.stderr + apply.stdout).toBe(0);
    expect(apply.stdout).toContain('verified: planning again is empty');
    expect(
      await sql<{ n: number }>(
        citus!,
        db.name,
        "SELECT count(*)::int AS n FROM pg_foreign_server WHERE srvname = 'files'",
        1,
      ),
    ).toEqual([{ n: 1 }]);
    // GRANT … ON FOREIGN SERVER reaches the workers too.
    for (const node of [1, 2])
      expect(
        await sql<{ acl: string }>(
          citus!,
          db.name,
          "SELECT srvacl::text AS acl FROM pg_foreign_server WHERE srvname = 'files'",
          node,
        ),
      ).toEqual([{ acl: expect.stringContaining('=U/') as unknown as string }]);
    expect(await db.query<{ n: number }>('SELECT count(*)::int AS n FROM app.imports')).toEqual([{ n: 0 }]);

    const out = mkdtempSync(join(tmpdir(), 'cm-ftab-intro-'));
    const intro = await cli(['introspect', '--database', db.url, '--out', join(out, 'citus-migrate.yaml')]);
    expect(intro.code, intro.stderr).toBe(0);
    expect(intro.stderr, intro.stderr).not.toContain('foreign');
    expect(readFileSync(join(out, 'sql', 'foreign-tables.sql'), 'utf8')).toContain('CREATE FOREIGN TABLE app.imports');
    expect(readFileSync(join(out, 'sql', 'constraints.sql'), 'utf8')).toContain('qty_positive');
    expect(readFileSync(join(out, 'sql', 'privileges.sql'), 'utf8')).toContain(
      'GRANT USAGE ON FOREIGN SERVER files TO PUBLIC',
    );
    const replan = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], {
      cwd: out,
    });
    expect(replan.code, replan.stdout + replan.stderr).toBe(0);
  });
});
