// `cluster up --engine docker` end to end, through the built CLI: containers of a Citus image on
// the engine DOCKER_HOST names, a template applied, an empty re-plan, and `down` leaving no
// container or network of that cluster. Skips (with the reason on the summary line) when no
// engine answers or it has no such image (CITUS_MIGRATE_TEST_IMAGE, default citusdata/citus).
import { cpSync, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { listClusterContainers } from '../../src/cluster/docker.js';
import { readContainersFile } from '../../src/cluster/docker-state.js';
import { runCliProcess } from '../support/cli-process.js';

const reason = inject('containerSkipReason');
const image = inject('containerImage');
const env = Object.fromEntries(
  ['DOCKER_HOST', 'TESTCONTAINERS_RYUK_DISABLED', 'HOME'].flatMap((k) =>
    process.env[k] ? [[k, process.env[k]!]] : [],
  ),
);

describe.skipIf(reason !== '')('cluster up --engine docker', () => {
  it('starts labelled containers, applies a template, re-plans empty, and down removes them all', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-docker-'));
    cpSync('templates/saas', dir, { recursive: true });
    const clusterDir = join(dir, '.citus-migrate', 'cluster');
    const up = await runCliProcess(['cluster', 'up', '--engine', 'docker', '--image', image, '--workers', '2'], {
      cwd: dir,
      env,
    });
    expect(up.code, up.stderr).toBe(0);
    const url = up.stdout.trim();
    expect(url).toMatch(
      new RegExp(
        `^postgresql://postgres@127\\.0\\.0\\.1:\\d+/postgres\\?passfile=${join(clusterDir, 'pgpass').replace(/[.]/g, '\\.')}$`,
      ),
    );
    expect(up.stderr).toContain(`engine: containers (${image}): --engine docker: `);
    const pgpass = join(clusterDir, 'pgpass');
    expect(statSync(pgpass).mode & 0o777).toBe(0o600);
    const password = readFileSync(pgpass, 'utf8').trim().split('\n')[0]!.split(':')[4]!;
    expect(password).toMatch(/^[0-9a-f]{36}$/);
    expect(up.stdout + up.stderr).not.toContain(password);
    const state = readContainersFile(clusterDir)!;
    expect((await listClusterContainers(state.id)).map((c) => [c.node, c.state])).toEqual([
      ['coordinator', 'running'],
      ['worker1', 'running'],
      ['worker2', 'running'],
    ]);
    try {
      const status = await runCliProcess(['cluster', 'status'], { cwd: dir, env });
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain(`url          ${url}\n`);
      expect(status.stdout).not.toContain(password);
      // Citus knows the nodes by network alias, never by the ports mapped on the host.
      const client = new pg.Client({
        host: '127.0.0.1',
        port: state.nodes[0]!.hostPort,
        user: 'postgres',
        password,
        database: 'postgres',
      });
      await client.connect();
      const nodes = await client
        .query('SELECT nodename, nodeport FROM pg_dist_node ORDER BY groupid')
        .finally(() => client.end());
      expect(nodes.rows).toEqual(
        ['coordinator', 'worker1', 'worker2'].map((nodename) => ({ nodename, nodeport: 5432 })),
      );
      const apply = await runCliProcess(['apply', '--database', url, '--auto-approve'], { cwd: dir, env });
      expect(apply.code, apply.stderr).toBe(0);
      expect(apply.stdout).toMatch(/^Applied 20 steps/);
      const plan = await runCliProcess(['plan', '--database', url, '--detailed-exitcode'], { cwd: dir, env });
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    } finally {
      const down = await runCliProcess(['cluster', 'down'], { cwd: dir, env });
      expect(down.code, down.stderr).toBe(0);
      expect(down.stderr).toBe(
        `removed 3 containers and 1 network labelled dev.citus-migrate.cluster=${state.id}, and the files cluster up wrote in .citus-migrate/cluster\n`,
      );
    }
    expect(await listClusterContainers(state.id)).toEqual([]);
    expect(existsSync(join(dir, '.citus-migrate'))).toBe(false);
  });
});
