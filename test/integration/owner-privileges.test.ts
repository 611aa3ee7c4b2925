// What an owner revoked from itself (REVOKE DELETE ON t FROM its owner), managed: introspect
// writes the REVOKE naming the owner, the plan compares it (a drift that gives the owner its
// privilege back exits 2 and revokes it again), a REVOKE from a role that holds nothing and does
// not own the object is a plan problem at its file:line (it would do nothing), and on Citus the
// REVOKE of a distributed table reaches its shards (pinned).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, plainServers, sql } from '../support/db.js';
import { schemaDump } from '../support/dump.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const plain = plainServers();
const citus = citusServers();

const ACL = "SELECT relacl::text AS acl FROM pg_class WHERE oid = 'app.t'::regclass";

describe('owner privileges', () => {
  it("another role's table: introspected as a REVOKE from it, compared, and a drift revoked again", async () => {
    const db = await freshDatabase(plain, 'ownpriv');
    const owner = `own_${db.name}`;
    await db.query(`CREATE ROLE ${owner};
      CREATE SCHEMA app; CREATE TABLE app.t (id int); ALTER TABLE app.t OWNER TO ${owner};
      REVOKE DELETE, TRUNCATE ON app.t FROM ${owner}; GRANT SELECT ON app.t TO PUBLIC`);
    const dir = projectDir({});
    const intro = await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: dir });
    expect(intro.code, intro.stderr).toBe(0);
    expect(intro.stderr).not.toContain('owner privileges');
    expect(readFileSync(join(dir, 'sql', 'privileges.sql'), 'utf8')).toContain(
      `REVOKE DELETE, TRUNCATE ON TABLE app.t FROM ${owner};`,
    );
    const plan = async () =>
      cli(['plan', '--database', db.url, '--detailed-exitcode', '--format', 'json'], { cwd: dir });
    const clean = await plan();
    expect(clean.code, clean.stdout).toBe(0);
    expect(JSON.parse(clean.stdout).notManaged).toEqual([]);
    // Someone gives the owner DELETE back: a difference, and apply takes it again.
    await db.query(`GRANT DELETE ON app.t TO ${owner}`);
    const drift = await plan();
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain(`REVOKE DELETE, TRUNCATE ON TABLE app.t FROM ${owner}`);
    const before = (await db.query<{ acl: string }>(ACL))[0]!.acl;
    expect(before).toContain(`${owner}=arwdxt/${owner}`);
    const apply = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(apply.code, apply.stderr).toBe(0);
    expect((await db.query<{ acl: string }>(ACL))[0]!.acl).toContain(`${owner}=arwxt/${owner}`);
    expect((await plan()).code).toBe(0);
  });

  it('a REVOKE from a role that neither holds nor owns anything there is a plan problem at its line; nothing runs', async () => {
    const db = await freshDatabase(plain, 'ownpriv');
    const other = `oth_${db.name}`;
    await db.query(`CREATE ROLE ${other}`);
    const dir = projectDir({
      'citus-migrate.yaml': 'version: 1\nsql: [t.sql]\ntables:\n  t: { columns: { id: integer } }\n',
      't.sql': `GRANT SELECT ON public.t TO ${other};\nREVOKE TRUNCATE ON public.t FROM ${other};\nREVOKE ALL ON public.t FROM ${other};\nREVOKE TRUNCATE ON public.t FROM ${other};\n`,
    });
    const before = schemaDump(db);
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `t.sql:4:1: privileges table public.t revoked from its owner: revokes from ${other}, which holds nothing on relation public.t and does not own it (${plain.user} does, the role that applies the plan)`,
    );
    expect(schemaDump(db)).toBe(before);
  });
});

describe.skipIf(!citus)('owner privileges on Citus', () => {
  it("a distributed table's: the REVOKE from its owner reaches every shard, and the next plan is empty", async () => {
    const db = await freshDatabase(citus!, 'cownpriv');
    const dir = projectDir({
      'citus-migrate.yaml': `version: 1
sql: [grants.sql]
tables:
  app.t: { distributed_by: id, shard_count: 4, columns: { id: { type: integer, not_null: true } } }
`,
      'grants.sql': `REVOKE TRUNCATE ON app.t FROM ${citus!.user};\n`,
    });
    const apply = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(apply.code, apply.stderr).toBe(0);
    const lacks = (acl: string): boolean => acl.includes(`${citus!.user}=arwdxt/`) && !acl.includes('D');
    expect(lacks((await db.query<{ acl: string }>(ACL))[0]!.acl)).toBe(true);
    // Citus 13.2 propagates the REVOKE to the shards (pinned: a shard's owner keeps what the table's lacks).
    for (const node of [1, 2]) {
      const shards = await sql<{ acl: string }>(
        citus!,
        db.name,
        [
          'SET citus.override_table_visibility TO off',
          "SELECT relacl::text AS acl FROM pg_class WHERE relname ~ '^t_[0-9]+$' AND relnamespace = 'app'::regnamespace",
        ],
        node,
      );
      expect(shards.length).toBeGreaterThan(0);
      for (const s of shards) expect(lacks(s.acl), s.acl).toBe(true);
    }
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
    expect(again.code, again.stdout).toBe(0);
  });
});
