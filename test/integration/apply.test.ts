// apply on a real PostgreSQL (local tables, so it runs everywhere): one transaction, approval,
// stale plans, failure reports, lock_timeout retries, the apply lock under 10 parallel applies,
// SIGKILL mid-transaction, rehearse, history, and no password in any output.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { catalogSnapshot, cliSessions, freshDatabase, plainServers, pollCount, type TestDb } from '../support/db.js';
import { runCliProcess, startCli } from '../support/cli-process.js';
import { cli, phaseStart } from '../support/run-cli.js';
import { holdApplyLock } from '../support/apply-lock.js';
import { runCli } from '../../src/cli-program.js';

const MANIFEST = `version: 1
tables:
  accounts:
    local: true
    columns: { id: { type: bigint, not_null: true }, name: text, balance: { type: "numeric(12,2)", default: "0" } }
    primary_key: [id]
  ledger:
    local: true
    columns: { id: { type: bigserial, not_null: true }, account: bigint, amount: numeric }
    primary_key: [id]
    foreign_keys: [ { columns: [account], references: accounts, ref_columns: [id] } ]
sequences:
  ledger_id_seq: { cache: 20 }
`;

function project(manifest = MANIFEST): string {
  const dir = mkdtempSync(join(tmpdir(), 'cm-apply-'));
  writeFileSync(join(dir, 'citus-migrate.yaml'), manifest);
  return dir;
}

const snapshot = (db: TestDb): Promise<string> => catalogSnapshot(db, { history: true });

describe('apply (plain PostgreSQL)', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'apply');
  });

  it('applies once, records it, verifies, and then has nothing to do', async () => {
    const cwd = project();
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd });
    expect(r.stderr).toContain('applying 4 steps in one transaction');
    // Without a terminal, a line per step as it starts (CI logs show where a slow apply is).
    expect(r.stderr.split('\n').filter((l) => l.startsWith('  ['))).toEqual([
      '  [1/4] create table public.accounts (3 columns)',
      '  [2/4] create table public.ledger (3 columns)',
      '  [3/4] set cache 20 on sequence public.ledger_id_seq before its table is distributed',
      '  [4/4] add foreign key public.ledger (account) -> public.accounts (id)',
    ]);
    expect(r.stdout).toMatch(
      /^Applied 4 steps in [\d.]+s; verified: planning again is empty\. Recorded as apply #1\.\n$/,
    );
    expect(r.code).toBe(0);
    expect(
      await db.query("SELECT cache_size::int AS c FROM pg_sequences WHERE sequencename = 'ledger_id_seq'"),
    ).toEqual([{ c: 20 }]);
    const again = await cli(['apply', '--database', db.url, '--auto-approve', '--format', 'json'], { cwd });
    expect(JSON.parse(again.stdout)).toEqual({ outcome: 'nothing_to_do' });
    const hist = JSON.parse((await cli(['history', '--database', db.url, '--format', 'json'])).stdout);
    expect(hist.map((h: { outcome: string; step_count: number }) => [h.outcome, h.step_count])).toEqual([
      ['nothing_to_do', 0],
      ['applied', 4],
    ]);
  });

  it('refuses without a terminal unless --auto-approve, and changes nothing', async () => {
    const before = await snapshot(db);
    const r = await cli(['apply', '--database', db.url], { cwd: project() });
    expect(r.code).toBe(64);
    expect(r.stderr).toContain(
      'refusing to apply without a terminal to confirm on: review the plan and pass --auto-approve',
    );
    expect(await snapshot(db)).toBe(before);
  });

  it('refuses --bench before anything runs when the manifest has no bench section', async () => {
    const before = await snapshot(db);
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--bench'], { cwd: project() });
    expect(r.code).toBe(64);
    expect(r.stderr).toBe(
      'error: --bench: citus-migrate.yaml has no bench section; nothing was run (add one, or apply without --bench)\n',
    );
    expect(await snapshot(db)).toBe(before);
  });

  it.each([
    ['n', 'no'],
    ['', 'end of input'],
  ])('declining at the prompt (%j: %s) exits 1 and changes nothing', async (answer) => {
    const before = await snapshot(db);
    let stderr = '';
    let asked = '';
    const code = await runCli(['apply', '--database', db.url], {
      stdout: () => undefined,
      stderr: (t) => {
        stderr += t;
      },
      env: {},
      isTTY: true,
      cwd: project(),
      prompt: async (q) => {
        asked = q;
        return answer;
      },
    });
    expect(asked).toBe('\nApply these 4 steps? [y/N] ');
    expect(code).toBe(1);
    expect(stderr).toContain('not applied\n');
    expect(await snapshot(db)).toBe(before);
  });

  it('history: an aligned table with a header; STATE is the state plan printed', async () => {
    const cwd = project();
    const plan = await cli(['plan', '--database', db.url], { cwd });
    const state = /state ([0-9a-f]{12})/.exec(plan.stdout)![1]!;
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd })).code).toBe(0);
    const h = await cli(['history', '--database', db.url]);
    const [header, row] = h.stdout.split('\n');
    expect(header).toMatch(/^ID +STARTED +OUTCOME +STEPS +DURATION +BY +MANIFEST +STATE +VERSION +ERROR$/);
    expect(row).toMatch(
      new RegExp(`^ 1  \\S+ \\S+ +applied +4 +\\d+ ms +\\S+ +citus-migrate\\.yaml +${state} +0\\.1\\.0$`),
    );
    expect(header!.indexOf('STATE')).toBe(row!.indexOf(state));
  });

  it('refuses a stale saved plan, and one whose manifest changed', async () => {
    const cwd = project();
    expect((await cli(['plan', '--database', db.url, '--format', 'json', '-o', 'plan.json'], { cwd })).code).toBe(0);
    await db.query('CREATE TABLE unrelated (x int)');
    const before = await snapshot(db);
    const stale = await cli(['apply', '--plan', 'plan.json', '--database', db.url, '--auto-approve'], { cwd });
    expect(stale.code).toBe(5);
    expect(stale.stderr).toContain(
      'stale plan: the cluster changed since plan.json was made; nothing was run\n  added table public.unrelated',
    );
    expect(await snapshot(db)).toBe(before);

    expect((await cli(['plan', '--database', db.url, '--format', 'json', '-o', 'plan.json'], { cwd })).code).toBe(0);
    writeFileSync(join(cwd, 'citus-migrate.yaml'), MANIFEST.replace('cache: 20', 'cache: 30'));
    const edited = await cli(['apply', '--plan', 'plan.json', '--database', db.url, '--auto-approve'], { cwd });
    expect(edited.code).toBe(5);
    expect(edited.stderr).toContain('stale plan: citus-migrate.yaml changed since plan.json was made');

    writeFileSync(join(cwd, 'citus-migrate.yaml'), MANIFEST);
    const ok = await cli(['apply', '--plan', 'plan.json', '--database', db.url, '--auto-approve'], { cwd });
    expect(ok.code).toBe(0);
  });

  it('refuses a saved plan whose SQL or hazards were edited, and runs the recomputed plan', async () => {
    const cwd = project(`${MANIFEST}prune: true\nignore: ["table public.victim"]\n`);
    await db.query('CREATE TABLE victim (id int); INSERT INTO victim SELECT generate_series(1, 100)');
    await db.query(
      'CREATE TABLE accounts (id bigint NOT NULL PRIMARY KEY, name text, balance numeric(12,2) DEFAULT 0, old text)',
    );
    expect((await cli(['plan', '--database', db.url, '--format', 'json', '-o', 'plan.json'], { cwd })).code).toBe(0);
    const good = readFileSync(join(cwd, 'plan.json'), 'utf8');
    const doc = JSON.parse(good) as {
      hazards: string[];
      transaction: { steps: { sql: string[]; hazards: string[]; summary: string }[] };
    };
    const before = await snapshot(db);

    // SQL appended to a step.
    const injected = structuredClone(doc);
    injected.transaction.steps[0]!.sql[0] += '; DROP TABLE victim';
    writeFileSync(join(cwd, 'plan.json'), JSON.stringify(injected));
    const a = await cli(
      ['apply', '--plan', 'plan.json', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'],
      { cwd },
    );
    expect(a.code).toBe(5);
    expect(a.stderr).toContain('plan.json does not match the plan for this manifest and cluster');
    expect(a.stderr).toContain('  step 1: its SQL');
    expect(await snapshot(db)).toBe(before);

    // Hazards emptied: the drop of a column would no longer need --allow-hazards.
    const silenced = structuredClone(doc);
    silenced.hazards = [];
    for (const s of silenced.transaction.steps) s.hazards = [];
    writeFileSync(join(cwd, 'plan.json'), JSON.stringify(silenced));
    const b = await cli(['apply', '--plan', 'plan.json', '--database', db.url, '--auto-approve'], { cwd });
    expect(b.code).toBe(5);
    expect(b.stderr).toMatch(/step \d+: hazards \[\], expected \[drops_data\]/);
    expect(await snapshot(db)).toBe(before);
    expect(await db.query('SELECT count(*)::int AS n FROM victim')).toEqual([{ n: 100 }]);

    // The file as written applies (with its hazard allowed), from another folder too.
    writeFileSync(join(cwd, 'plan.json'), good);
    const elsewhere = mkdtempSync(join(tmpdir(), 'cm-elsewhere-'));
    const refused = await cli(['apply', '--plan', join(cwd, 'plan.json'), '--database', db.url, '--auto-approve'], {
      cwd: elsewhere,
    });
    expect(refused.code).toBe(4);
    const ok = await cli(
      [
        'apply',
        '--plan',
        join(cwd, 'plan.json'),
        '--database',
        db.url,
        '--auto-approve',
        '--allow-hazards',
        'drops_data',
      ],
      { cwd: elsewhere },
    );
    expect(ok.code).toBe(0);
    expect(await db.query('SELECT count(*)::int AS n FROM victim')).toEqual([{ n: 100 }]);
  });

  it("finds a saved plan's manifest beside the plan file; -f naming another manifest or a changed --online is a usage error", async () => {
    const cwd = project();
    const other = project(MANIFEST.replace('cache: 20', 'cache: 30'));
    const out = mkdtempSync(join(tmpdir(), 'cm-plans-'));
    expect(
      (await cli(['plan', '--database', db.url, '--format', 'json', '-o', join(out, 'p.json')], { cwd })).code,
    ).toBe(0);
    const saved = JSON.parse(readFileSync(join(out, 'p.json'), 'utf8')) as { manifest: { file: string; path: string } };
    expect(saved.manifest.file).toBe(join('..', cwd.split('/').pop()!, 'citus-migrate.yaml'));
    expect(saved.manifest.path).toBe(join(cwd, 'citus-migrate.yaml'));
    const before = await snapshot(db);
    const conflict = await cli(
      [
        'apply',
        '--plan',
        join(out, 'p.json'),
        '-f',
        join(other, 'citus-migrate.yaml'),
        '--database',
        db.url,
        '--auto-approve',
      ],
      { cwd: other },
    );
    expect(conflict.code).toBe(64);
    expect(conflict.stderr).toContain(
      `name different manifests: the plan was made from ${join(cwd, 'citus-migrate.yaml')}`,
    );
    const online = await cli(
      ['apply', '--plan', join(out, 'p.json'), '--online', '--database', db.url, '--auto-approve'],
      { cwd: other },
    );
    expect(online.code).toBe(64);
    expect(await snapshot(db)).toBe(before);
    const ok = await cli(['apply', '--plan', 'p.json', '--database', db.url, '--auto-approve'], { cwd: out });
    expect(ok.code).toBe(0);
  });

  it('reports the failing step with a caret, rolls everything back, and records the failure', async () => {
    const cwd = project(`${MANIFEST.replace('default: "0"', 'default: "no_such_function(1)"')}`);
    const before = await snapshot(db);
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      [
        'error: apply failed at step 1: create table public.accounts (3 columns)',
        '  ERROR 42883: function no_such_function(integer) does not exist',
        '  HINT: No function matches the given name and argument types. You might need to add explicit type casts.',
        '  statement:',
        '    CREATE TABLE public.accounts (',
        '        id bigint NOT NULL,',
        '        name text,',
        '        balance numeric(12,2) DEFAULT no_such_function(1),',
        '                                      ^',
      ].join('\n'),
    );
    expect(r.stderr).toContain('nothing was applied: the transaction was rolled back');
    expect(r.stderr).not.toContain('current transaction is aborted');
    const after = JSON.parse(await snapshot(db));
    expect(after.doc).toEqual(JSON.parse(before).doc);
    const hist = await db.query<{ outcome: string; code: string }>(
      "SELECT outcome, error->>'sqlstate' AS code FROM citus_migrate.applies",
    );
    expect(hist).toEqual([{ outcome: 'failed', code: '42883' }]);
  });

  it('retries after lock_timeout once the holder has ended its transaction, and then succeeds', async () => {
    // No column default: the catalog read does not lock it, so the wait happens at the step
    // that sets the default (ALTER TABLE), inside the transaction.
    await db.query('CREATE TABLE accounts (id bigint NOT NULL PRIMARY KEY, name text, balance numeric(12,2))');
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query('BEGIN; LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE');
    const release = setTimeout(() => {
      void holder.query('COMMIT');
    }, 1500);
    try {
      const r = await cli(
        ['apply', '--database', db.url, '--auto-approve', '--lock-timeout', '300ms', '--retries', '3'],
        { cwd: project() },
      );
      expect(r.stderr).toMatch(
        /lock_timeout at step \d+ \(.*\); rolled back, retrying once the sessions that held its tables end their transactions \(at most 15s; attempt 2 of 4\)/,
      );
      expect(r.stderr).toMatch(
        /waiting, holding no lock, for these transactions to end before retrying:\n {2}backend \d+ /,
      );
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/after 2 attempts/);
    } finally {
      clearTimeout(release);
      await holder.end();
    }
  });

  it('bounds the catalog read by --lock-timeout too (printing a generated column locks its table)', async () => {
    await db.query(
      'CREATE TABLE accounts (id bigint NOT NULL PRIMARY KEY, name text, balance numeric(12,2) DEFAULT 0, twice bigint GENERATED ALWAYS AS (id * 2) STORED)',
    );
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query('BEGIN; LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE');
    try {
      const r = await cli(
        ['apply', '--database', db.url, '--auto-approve', '--lock-timeout', '200ms', '--retries', '1'],
        { cwd: project() },
      );
      expect(r.stderr).toContain(
        'lock_timeout while reading the catalog (a table is locked by another session); retrying in 1s (attempt 2 of 2)',
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /reading the catalog waited longer than --lock-timeout \(200ms\): canceling statement due to lock timeout; ACCESS EXCLUSIVE locks are held by backend \d+ \(role postgres, .*; AccessExclusiveLock on public\.accounts\); nothing was applied/,
      );
    } finally {
      await holder.end();
    }
  });

  it('is not held up by a lock on a table it does not change whose columns only have defaults (printed without locking it)', async () => {
    await db.query(
      'CREATE TABLE audit_log (id bigint NOT NULL PRIMARY KEY, name text, balance numeric(12,2) DEFAULT 0)',
    );
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query('BEGIN; LOCK TABLE audit_log IN ACCESS EXCLUSIVE MODE');
    try {
      const r = await cli(
        ['apply', '--database', db.url, '--auto-approve', '--lock-timeout', '200ms', '--retries', '0'],
        { cwd: project() },
      );
      expect(r.stderr).not.toContain('lock timeout');
      expect(r.code).toBe(0);
    } finally {
      await holder.end();
    }
  });

  it('gives up after --wait when another apply holds the lock', async () => {
    const holder = await holdApplyLock(db, { applicationName: 'citus-migrate' });
    try {
      const before = await snapshot(db);
      const r = await cli(['apply', '--database', db.url, '--auto-approve', '--wait', '1s'], { cwd: project() });
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(
        /the apply lock \(citus_migrate\.apply_lock\) is still held after 1s by backend \d+ \(role postgres, application "citus-migrate", in a transaction since /,
      );
      expect(await snapshot(db)).toBe(before);
    } finally {
      await holder.end();
    }
  });

  it('ten applies at once: exactly one does the work', async () => {
    const cwd = project();
    const runs = await Promise.all(
      Array.from({ length: 10 }, () =>
        runCliProcess(['apply', '--database', db.url, '--auto-approve', '--format', 'json'], { cwd }),
      ),
    );
    expect(runs.filter((r) => r.code !== 0).map((r) => r.stderr)).toEqual([]);
    expect(runs.map((r) => r.code)).toEqual(Array(10).fill(0));
    const outcomes = runs.map((r) => JSON.parse(r.stdout).outcome).sort();
    expect(outcomes).toEqual(['nothing_to_do', ...Array(8).fill('nothing_to_do'), 'applied'].sort());
    // The table itself keeps the word its CHECK has always had for an applied apply (own/history.ts).
    expect(
      await db.query('SELECT outcome, count(*)::int AS n FROM citus_migrate.applies GROUP BY 1 ORDER BY 1'),
    ).toEqual([
      { outcome: 'nothing_to_do', n: 9 },
      { outcome: 'success', n: 1 },
    ]);
  });

  it('SIGKILL in the middle of the transaction leaves the database unchanged; the next apply converges', async () => {
    await db.query('CREATE TABLE ledger_blocker (x int)');
    // The manifest adds a column to ledger_blocker, whose lock another session holds: the apply
    // has created the first tables inside its transaction and waits there when it is killed.
    const cwd = project(
      MANIFEST.replace(
        'sequences:',
        '  ledger_blocker:\n    local: true\n    columns: { x: integer, y: text }\nsequences:',
      ),
    );
    const before = await snapshot(db);
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query('BEGIN; LOCK TABLE ledger_blocker IN ACCESS EXCLUSIVE MODE');
    const { child, done } = startCli(['apply', '--database', db.url, '--auto-approve', '--lock-timeout', '60s'], {
      cwd,
    });
    expect(await pollCount(db, cliSessions(true), (n) => n > 0)).toBe(true);
    child.kill('SIGKILL');
    const res = await done;
    expect(res.signal).toBe('SIGKILL');
    await holder.query('COMMIT');
    await holder.end();
    expect(await pollCount(db, cliSessions(), (n) => n === 0)).toBe(true);
    const after = JSON.parse(await snapshot(db));
    expect(after.doc).toEqual(JSON.parse(before).doc);
    const next = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd });
    expect(next.code).toBe(0);
    expect(next.stderr).toContain('1 earlier apply had died mid-way');
    expect(
      await db.query(
        "SELECT outcome, error->>'code' AS code, error->>'message' AS message FROM citus_migrate.applies ORDER BY id",
      ),
    ).toEqual([
      {
        outcome: 'aborted',
        code: 'session_gone',
        message: expect.stringMatching(
          /^the apply's session \(backend \d+\) ended before the apply recorded how it ended: the tool was killed, its connection was lost or the server restarted/,
        ),
      },
      { outcome: 'success', code: null, message: null },
    ]);
  });

  it('rehearse runs the transaction and keeps nothing, not even a history schema', async () => {
    const before = await snapshot(db);
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--rehearse'], { cwd: project() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Rehearsed 4 steps on the cluster and rolled back');
    expect(r.stdout).toContain('Not rolled back: values drawn from sequences (nextval is never undone).');
    expect(r.stdout).not.toContain('nothing was kept');
    expect(await snapshot(db)).toBe(before);
  });

  it('never prints a password: not in output, plan files, history or errors', async () => {
    const secret = 'Pa55-w0rd-never-shown';
    const url = db.url.replace('postgresql://postgres@', `postgresql://postgres:${secret}@`);
    const cwd = project();
    const outputs: string[] = [];
    const env = { PGPASSWORD: secret };
    for (const args of [
      ['plan', '--database', url, '--format', 'json', '-o', 'plan.json'],
      ['plan', '--database', url, '--format', 'markdown'],
      ['apply', '--database', url, '--auto-approve', '--format', 'json'],
      ['history', '--database', url, '--format', 'json'],
      ['introspect', '--database', url],
      ['bench', '--database', url, '--transactions', '5'],
      ['validate'],
      ['plan', '--database', url.replace(/:\d+\//, ':1/')],
      ['apply', '--database', url.replace(/:\d+\//, ':1/'), '--auto-approve', '--format', 'json'],
      ['plan', '--format', 'json'],
    ]) {
      const r = await runCliProcess(args, {
        cwd,
        env: { ...env, ...(args.includes('--database') ? {} : { DATABASE_URL: url.replace(/:\d+\//, ':1/') }) },
      });
      outputs.push(r.stdout, r.stderr);
    }
    outputs.push(readFileSync(join(cwd, 'plan.json'), 'utf8'));
    outputs.push(JSON.stringify(await db.query('SELECT * FROM citus_migrate.applies')));
    expect(outputs.join('\n')).toContain('cannot connect to postgres@127.0.0.1:1/');
    expect(outputs.filter((o) => o.includes(secret))).toEqual([]);
  });
});

// apply reads the manifest while the server reads its catalog (apply/run.ts): what it reads first
// changes nothing, and the manifest's error still comes first, at once, as if it had been loaded
// before the cluster was asked anything.
describe('apply: the manifest loads while the catalog is read', () => {
  const BAD = 'version: 1\ntables:\n  t:\n    local: true\n    columns: { id: { type: bigint, not_nul: true } }\n';

  it('a manifest error wins over a server that cannot be reached', async () => {
    const r = await cli(['apply', '--database', 'postgresql://postgres@127.0.0.1:1/x', '--auto-approve'], {
      cwd: project(BAD),
    });
    expect(r.stderr).toContain('not_nul');
    expect(r.stderr).not.toContain('cannot connect');
    expect(r.code).toBe(3);
  });

  it('a manifest error ends the wait for a lock another apply holds, and nothing is written', async () => {
    const db = await freshDatabase(plainServers(), 'apply-overlap');
    const holder = await holdApplyLock(db);
    try {
      const before = await snapshot(db);
      // --wait 120s: a run that waited for the lock before reporting the manifest would time out.
      const r = await cli(['apply', '--database', db.url, '--auto-approve', '--wait', '120s'], { cwd: project(BAD) });
      expect(r.stderr).toContain('not_nul');
      expect(r.code).toBe(3);
      expect(await snapshot(db)).toBe(before);
    } finally {
      await holder.end();
    }
  }, 60_000);

  it('connects and sends the catalog query before it reads the manifest (--timings)', async () => {
    const db = await freshDatabase(plainServers(), 'apply-overlap');
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], {
      cwd: project(),
      env: { CITUS_MIGRATE_TIMINGS: '1' },
    });
    expect(r.code, r.stderr).toBe(0);
    const at = (phase: string): number => phaseStart(r.stderr, phase);
    expect(at('connect')).toBeLessThan(at('read manifest'));
    expect(at('catalog query')).toBeLessThan(at('read manifest'));
  });

  it('a server that cannot be reached is reported for a manifest that loads', async () => {
    const r = await cli(['apply', '--database', 'postgresql://postgres@127.0.0.1:1/x', '--auto-approve'], {
      cwd: project(),
    });
    expect(r.stderr).toContain('cannot connect to postgres@127.0.0.1:1/x');
    expect(r.code).toBe(1);
  });
});
