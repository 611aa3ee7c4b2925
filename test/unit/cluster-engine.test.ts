// cluster up --engine: the engine choice from probe results, flag checks, labels, the URL and the
// password file, without an engine (nothing here starts a container).
import { describe, expect, it } from 'vitest';
import {
  chooseEngine,
  clusterLabels,
  hostUrl,
  labelFilter,
  nodeNames,
  parseEngineOptions,
  pgpassText,
  registrationSql,
} from '../../src/cluster/engine.js';
import { pgpassLookup } from '../../src/db/pgpass.js';
import { quoteLiteral } from '../../src/sql/quote.js';
import { runCliProcess } from '../support/cli-process.js';
import { cli } from '../support/run-cli.js';

const up = {
  answered: true,
  detail: 'a container engine answered at DOCKER_HOST=unix:///run/podman/podman.sock (running on debian)',
};
const down = {
  answered: false,
  detail: 'nothing answered at the default Docker socket (DOCKER_HOST is not set) within 3s',
};
const local = { available: true, detail: '/usr/lib/postgresql/15/bin' };
const noLocal = { available: false, detail: 'the citus extension is not installed in /usr/lib/postgresql/15/lib' };

describe('chooseEngine', () => {
  it('auto prefers an engine that answered, else local binaries, and says why', () => {
    expect(chooseEngine('auto', up, local)).toEqual({
      engine: 'docker',
      why: `a container engine answered: ${up.detail}`,
    });
    expect(chooseEngine('auto', down, local)).toEqual({
      engine: 'local',
      why: `no container engine answered (${down.detail}); local binaries: /usr/lib/postgresql/15/bin`,
    });
  });
  it('auto with neither is cluster_unavailable', () => {
    expect(() => chooseEngine('auto', down, noLocal)).toThrow(
      `cannot start a cluster: no container engine answered (${down.detail}), and no local Citus (${noLocal.detail})`,
    );
  });
  it('docker without an engine is cluster_engine_unavailable (exit 1), even when local binaries exist', () => {
    let err: unknown;
    try {
      chooseEngine('docker', down, local);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'cluster_engine_unavailable', exitCode: 1 });
    expect((err as Error).message).toBe(
      `--engine docker: no container engine answered (${down.detail}). Start Docker, or Podman's service and set DOCKER_HOST (e.g. unix:///run/podman/podman.sock), or use --engine local`,
    );
  });
  it('local never needs a probe', () => {
    expect(chooseEngine('local', undefined, noLocal)).toEqual({ engine: 'local', why: '--engine local' });
  });
});

describe('parseEngineOptions', () => {
  it('defaults to auto and the official image', () => {
    expect(parseEngineOptions({})).toEqual({ engine: 'auto', image: 'citusdata/citus:13.2' });
    expect(parseEngineOptions({ engine: 'docker', image: 'localhost/citus-migrate-test/citus:13.2' })).toEqual({
      engine: 'docker',
      image: 'localhost/citus-migrate-test/citus:13.2',
    });
  });
  it('refuses --image without --engine docker, an unknown engine, and a malformed image', () => {
    expect(() => parseEngineOptions({ engine: 'auto', image: 'citusdata/citus:13.2' })).toThrow(
      '--image needs --engine docker (got --engine auto): only containers run an image',
    );
    expect(() => parseEngineOptions({ engine: 'podman' })).toThrow(
      '--engine must be one of auto, docker, local (got "podman")',
    );
    expect(() => parseEngineOptions({ engine: 'docker', image: 'citus data' })).toThrow(
      '--image must be an image reference such as citusdata/citus:13.2 (got "citus data")',
    );
  });
});

describe('cluster up flags through the CLI', () => {
  it('--image without --engine docker is a usage error (exit 64) before anything starts', async () => {
    const r = await cli(['cluster', 'up', '--image', 'citusdata/citus:13.2', '--dir', '/nonexistent/never-created']);
    expect(r).toEqual({
      code: 64,
      stdout: '',
      stderr: 'error: --image needs --engine docker (got --engine auto): only containers run an image\n',
    });
  });
  it('--engine docker with no engine answering is exit 1 and says so', async () => {
    // A real process: testcontainers reads DOCKER_HOST from the process's own environment.
    const r = await runCliProcess(['cluster', 'up', '--engine', 'docker', '--dir', '/nonexistent/never-created'], {
      env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock', TESTCONTAINERS_RYUK_DISABLED: 'true' },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: --engine docker: no container engine answered \(.*DOCKER_HOST=unix:\/\/\/nonexistent\/docker\.sock.*\)\. Start Docker, or Podman's service and set DOCKER_HOST \(e\.g\. unix:\/\/\/run\/podman\/podman\.sock\), or use --engine local\n$/,
    );
  });
});

describe('labels, URL, password file, registration', () => {
  it('labels containers by cluster and node, the network by cluster', () => {
    expect(clusterLabels('0123456789ab', 'worker1')).toEqual({
      'dev.citus-migrate.cluster': '0123456789ab',
      'dev.citus-migrate.node': 'worker1',
    });
    expect(clusterLabels('0123456789ab')).toEqual({ 'dev.citus-migrate.cluster': '0123456789ab' });
    expect(labelFilter('0123456789ab')).toBe('dev.citus-migrate.cluster=0123456789ab');
    expect(nodeNames(2)).toEqual(['coordinator', 'worker1', 'worker2']);
  });
  it('builds a host URL without a password, naming the password file', () => {
    expect(hostUrl(5433)).toBe('postgresql://postgres@127.0.0.1:5433/postgres');
    expect(hostUrl(5433, 'my db', '/home/me/proj/.citus-migrate/cluster/pgpass')).toBe(
      'postgresql://postgres@127.0.0.1:5433/my%20db?passfile=/home/me/proj/.citus-migrate/cluster/pgpass',
    );
  });
  it('writes a password file that the pgpass reader reads back, escaping : and \\', () => {
    const text = pgpassText([5433, 5434], 'a:b\\c');
    expect(text).toBe('127.0.0.1:5433:*:postgres:a\\:b\\\\c\n127.0.0.1:5434:*:postgres:a\\:b\\\\c\n');
    expect(pgpassLookup(text, { host: '127.0.0.1', port: 5434, database: 'x', user: 'postgres' })).toBe('a:b\\c');
    expect(pgpassLookup(text, { host: '127.0.0.1', port: 5435, database: 'x', user: 'postgres' })).toBeUndefined();
  });
  it('registers the coordinator first, then the workers, by network alias on 5432', () => {
    expect(registrationSql(['worker1', 'worker2'], quoteLiteral)).toEqual([
      "SELECT pg_catalog.citus_set_coordinator_host('coordinator', 5432)",
      "SELECT pg_catalog.citus_add_node('worker1', 5432)",
      "SELECT pg_catalog.citus_add_node('worker2', 5432)",
    ]);
  });
});
