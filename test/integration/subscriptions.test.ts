// Subscriptions against a real publisher (another database of the same server, its slot made
// beforehand: a subscription cannot make a slot on its own server while it waits for itself):
// introspect writes the connection string as a `${env:NAME}` placeholder (only its digest is
// read), the plan compares digests, apply makes, changes and drops the subscription after COMMIT
// (and rows arrive), changes are made in place (ALTER SUBSCRIPTION), --prove leaves it out of its
// copy and says so, a role that may not read the connection string gets it named as not
// managed, and no output, file or history row ever holds the password.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers, pollCount, type TestDb } from '../support/db.js';
import { schemaDump } from '../support/dump.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const plain = plainServers();
const PASSWORD = 'hunter2-sub';

/** A publisher with two publications and rows, and the slot the subscription will use. */
async function publisher(slot: string): Promise<{ pub: TestDb; conn: string }> {
  const pub = await freshDatabase(plain, 'subpub');
  await pub.query(`CREATE TABLE orders (id int PRIMARY KEY, note text);
    CREATE TABLE items (id int PRIMARY KEY);
    INSERT INTO orders SELECT g, 'n' || g FROM generate_series(1, 5) g;
    INSERT INTO items SELECT generate_series(1, 3);
    CREATE PUBLICATION orders_pub FOR TABLE orders;
    CREATE PUBLICATION items_pub FOR TABLE items`);
  await pub.query(`SELECT pg_create_logical_replication_slot('${slot}', 'pgoutput')`);
  const node = plain.nodes[0]!;
  // (trust authentication: the password is never checked, only carried)
  return {
    pub,
    conn: `host=${node.host} port=${node.port} dbname=${pub.name} user=${plain.user} password=${PASSWORD}`,
  };
}

const MANIFEST = `version: 1
sql: [sql]
tables:
  orders: { local: true, columns: { id: { type: integer, not_null: true }, note: text }, primary_key: [id] }
  items: { local: true, columns: { id: { type: integer, not_null: true } }, primary_key: [id] }
`;

const filesOf = (dir: string): string =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');

const subscriptionRow = async (db: TestDb, name: string) =>
  (
    await db.query<{ enabled: boolean; pubs: string[]; binary: boolean; conninfo: string }>(
      `SELECT subenabled AS enabled, subpublications AS pubs, subbinary AS binary, subconninfo AS conninfo
       FROM pg_subscription WHERE subname = '${name}'`,
    )
  )[0];

describe('subscriptions', () => {
  it('made, changed in place and dropped after COMMIT, the connection string only ever from the environment', async () => {
    const slot = `feed_${Date.now()}`;
    const { pub, conn } = await publisher(slot);
    const db = await freshDatabase(plain, 'sub');
    const declare = (extra: string, publications = 'orders_pub') =>
      `CREATE SUBSCRIPTION feed CONNECTION '\${env:FEED}' PUBLICATION ${publications} WITH (create_slot = false, slot_name = '${slot}'${extra});\n`;
    const dir = projectDir({ 'citus-migrate.yaml': MANIFEST, 'sql/subscriptions.sql': declare('') });
    const seen: string[] = [];
    const run = async (args: string[], env: Record<string, string> = { FEED: conn }) => {
      const r = await cli([...args, '--database', db.url], { cwd: dir, env });
      seen.push(r.stdout, r.stderr);
      return r;
    };

    const planned = await run(['plan']);
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    // Its slot is there already (create_slot = false): made in the transaction, after its tables.
    expect(planned.stdout).toContain('3. create subscription feed\n');
    expect(planned.stdout).not.toContain('After COMMIT');
    // psql's script reads the variable from the environment (\getenv).
    const script = (await run(['plan', '--format', 'sql'])).stdout;
    expect(script).toContain('\\getenv FEED FEED');
    expect(script).toMatch(/CREATE SUBSCRIPTION feed CONNECTION :'FEED' PUBLICATION orders_pub[^]*COMMIT;/);
    const applied = await run(['apply', '--auto-approve']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('verified: planning again is empty');
    expect(await subscriptionRow(db, 'feed')).toMatchObject({ enabled: true, pubs: ['orders_pub'] });
    // Rows arrive (the initial copy).
    expect(await pollCount(db, 'SELECT count(*)::int AS n FROM orders', (n) => n === 5)).toBe(true);
    expect((await run(['plan', '--detailed-exitcode'])).code).toBe(0);

    // Options and publications: in place, the same subscription (no second copy of its rows).
    writeFileSync(join(dir, 'sql/subscriptions.sql'), declare(', binary = true', 'orders_pub, items_pub'));
    const change = await run(['plan', '--detailed-exitcode', '--format', 'sql']);
    expect(change.code, change.stdout).toBe(2);
    // SET in the transaction; SET PUBLICATION, which copies the new tables' rows, after COMMIT.
    expect(change.stdout).toMatch(
      /ALTER SUBSCRIPTION feed SET \(binary = true\);[^]*COMMIT;[^]*non_transactional[^]*\nALTER SUBSCRIPTION feed SET PUBLICATION orders_pub, items_pub;/,
    );
    expect(change.stdout).not.toContain('DROP SUBSCRIPTION');
    const refused = await run(['apply', '--auto-approve']);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('non_transactional: step 2 (change subscription feed)');
    expect((await run(['apply', '--auto-approve', '--allow-hazards', 'non_transactional'])).code).toBe(0);
    expect(await subscriptionRow(db, 'feed')).toMatchObject({ binary: true, pubs: ['orders_pub', 'items_pub'] });
    expect(await pollCount(db, 'SELECT count(*)::int AS n FROM items', (n) => n === 3)).toBe(true);
    expect(await pollCount(db, 'SELECT count(*)::int AS n FROM orders', (n) => n === 5)).toBe(true);

    // Another connection string: ALTER SUBSCRIPTION … CONNECTION, shown as its placeholder.
    const moved = `${conn} application_name=feed2`;
    const other = await run(['plan', '--detailed-exitcode', '--format', 'sql'], { FEED: moved });
    expect(other.code, other.stdout).toBe(2);
    expect(other.stdout).toContain(`ALTER SUBSCRIPTION feed CONNECTION :'FEED'`);
    expect((await run(['apply', '--auto-approve'], { FEED: moved })).code).toBe(0);
    expect((await subscriptionRow(db, 'feed'))?.conninfo).toBe(moved);

    // Unset: not compared, and the plan says so.
    const unset = await run(['plan', '--detailed-exitcode'], {});
    expect(unset.code, unset.stdout).toBe(2); // may differ: never passed as no drift
    expect(unset.stdout).toContain('FEED is not set here');
    expect(unset.stdout).toContain('No changes to what could be compared: 1 secret');

    // introspect: a placeholder named after the subscription, never the string.
    const intro = projectDir({});
    const i = await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: intro });
    expect(i.code, i.stderr).toBe(0);
    const file = readFileSync(join(intro, 'sql', 'subscriptions.sql'), 'utf8');
    expect(file).toContain(
      '-- Secrets the cluster does not give: set CM_SUB_FEED_CONNECTION where plan and apply run.',
    );
    expect(file).toContain(
      `CREATE SUBSCRIPTION feed CONNECTION '\${env:CM_SUB_FEED_CONNECTION}' PUBLICATION orders_pub, items_pub`,
    );
    const back = await cli(['plan', '--database', db.url, '--detailed-exitcode'], {
      cwd: intro,
      env: { CM_SUB_FEED_CONNECTION: moved },
    });
    expect(back.code, back.stdout).toBe(0);

    // --prove: the copy never connects to the publisher; the proof says what it left out.
    writeFileSync(join(dir, 'sql/subscriptions.sql'), declare(', binary = false'));
    const proved = await run(['plan', '--prove'], { FEED: moved });
    expect(proved.stdout).toContain('step(s) of subscriptions not run there, nor proved');
    expect(proved.stdout).not.toContain('refused');

    // Pruned: dropped after COMMIT with its slot, a hazard to allow.
    writeFileSync(join(dir, 'sql/subscriptions.sql'), '');
    writeFileSync(join(dir, 'citus-migrate.yaml'), `${MANIFEST}prune: true\n`);
    const pruned = await run(['apply', '--auto-approve', '--allow-hazards', 'drops_data,non_transactional'], {
      FEED: moved,
    });
    expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
    expect(await subscriptionRow(db, 'feed')).toBeUndefined();
    expect(await pub.query(`SELECT 1 FROM pg_replication_slots WHERE slot_name = '${slot}'`)).toEqual([]);

    const history = await db.query<{ t: string }>(
      'SELECT pg_catalog.row_to_json(a)::text AS t FROM citus_migrate.applies a',
    );
    for (const text of [...seen, filesOf(dir), filesOf(intro), ...history.map((h) => h.t)])
      expect(text).not.toContain(PASSWORD);
  });

  it('introspected and applied elsewhere: the same pg_dump, the connection string from the environment', async () => {
    const slot = `feedd_${Date.now()}`;
    const { pub, conn } = await publisher(slot);
    const db = await freshDatabase(plain, 'subd');
    const copy = await freshDatabase(plain, 'subc');
    // Disabled, binary and streaming, on the slot made beforehand: what pg_dump writes of them.
    await db.query(`CREATE TABLE orders (id int PRIMARY KEY, note text);
      CREATE TABLE items (id int PRIMARY KEY);
      CREATE SUBSCRIPTION feed CONNECTION '${conn}' PUBLICATION orders_pub, items_pub
        WITH (create_slot = false, slot_name = '${slot}', enabled = false, binary = true, streaming = true, copy_data = false)`);
    const dir = projectDir({});
    const i = await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: dir });
    expect(i.code, i.stderr).toBe(0);
    // The copy uses the slot the publisher has: create_slot = false, which only CREATE reads (not
    // compared; a subscription cannot make a slot on its own server while the apply waits for it).
    const file = join(dir, 'sql', 'subscriptions.sql');
    writeFileSync(file, readFileSync(file, 'utf8').replace('WITH (', 'WITH (create_slot = false, '));
    const env = { CM_SUB_FEED_CONNECTION: conn };
    const applied = await cli(['apply', '--database', copy.url, '--auto-approve', '--allow-hazards', 'all'], {
      cwd: dir,
      env,
    });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('verified: planning again is empty');
    expect(schemaDump(copy)).toBe(schemaDump(db));
    expect(filesOf(dir)).not.toContain(PASSWORD);
    for (const d of [db, copy]) await d.query('ALTER SUBSCRIPTION feed SET (slot_name = NONE); DROP SUBSCRIPTION feed');
    await pub.query(`SELECT pg_drop_replication_slot('${slot}')`);
  });

  it('planned by a role that may not read the connection string: named as not managed', async () => {
    const slot = `feedr_${Date.now()}`;
    const { pub, conn } = await publisher(slot);
    const db = await freshDatabase(plain, 'subr');
    await db.query(`CREATE TABLE orders (id int PRIMARY KEY, note text);
      CREATE SUBSCRIPTION feed CONNECTION '${conn}' PUBLICATION orders_pub WITH (create_slot = false, slot_name = '${slot}', enabled = false)`);
    const reader = `${db.name}_r`;
    await db.query(`CREATE ROLE ${reader} LOGIN`);
    const url = db.url.replace(/\/\/[^@/]+@/, `//${reader}@`);
    const r = await cli(['plan', '--database', url, '--format', 'json'], { cwd: projectDir('version: 1\n') });
    const doc = JSON.parse(r.stdout) as { notManaged: { kind: string; name: string }[] };
    expect(doc.notManaged.filter((x) => x.kind === 'subscription').map((x) => x.name)).toEqual(['feed']);
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    await db.query(`ALTER SUBSCRIPTION feed SET (slot_name = NONE); DROP SUBSCRIPTION feed`);
    await pub.query(`SELECT pg_drop_replication_slot('${slot}')`);
  });

  it('a connection string written out is refused at its line, without repeating it', async () => {
    const db = await freshDatabase(plain, 'sublit');
    const dir = projectDir({
      'citus-migrate.yaml': 'version: 1\nsql: [sql]\n',
      'sql/s.sql': `CREATE SUBSCRIPTION s CONNECTION 'host=x password=letmein' PUBLICATION p;\n`,
    });
    const r = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("sql/s.sql:1:1: a subscription's connection string may hold a password");
    expect(r.stderr).not.toContain('letmein');
  });
});
