// `cluster up|down` never deletes what it did not create: refusals, flag checks and the removal
// rules, without a server (nothing here starts PostgreSQL).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removalProblems } from '../../src/cluster/removal.js';
import { runningClusterDifferences } from '../../src/cluster/running.js';
import type { ClusterState } from '../../src/cluster/state-file.js';
import { cli } from '../support/run-cli.js';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'cm-cluster-unit-'));

/** A cluster.json as `up` writes it for a coordinator and one worker with data in dir (nodes not running). */
function fakeCluster(dir: string): ClusterState {
  const nodes = ['coordinator', 'worker1'].map((name, i) => ({ name, port: 40000 + i, dataDir: join(dir, name) }));
  const state: ClusterState = {
    version: 1,
    citus: true,
    nodes,
    dataRoot: dir,
    created: {
      dirs: [dir],
      paths: [...nodes.flatMap((n) => [n.dataDir, join(dir, `${n.name}.log`)]), join(dir, 'cluster.json')],
    },
  };
  mkdirSync(dir, { recursive: true });
  for (const n of nodes) {
    mkdirSync(join(n.dataDir, 'base'), { recursive: true });
    writeFileSync(join(n.dataDir, 'PG_VERSION'), '15\n');
    writeFileSync(join(dir, `${n.name}.log`), 'log\n');
  }
  writeFileSync(join(dir, 'cluster.json'), JSON.stringify(state));
  return state;
}

describe('cluster up refuses a folder it does not own', () => {
  it('leaves a non-empty folder without cluster.json alone (exit 1, cluster_dir_not_empty)', async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, 'citus-migrate.yaml'), 'version: 1\n');
    const r = await cli(['cluster', 'up', '--dir', '.'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: ${cwd} is not empty (1 entry, and no cluster.json of a running cluster): cluster up keeps its files in a folder of its own, which cluster down deletes. Pass --dir with a new or empty folder, e.g. --dir .citus-migrate/cluster\n`,
    );
    expect(readdirSync(cwd)).toEqual(['citus-migrate.yaml']);
    expect(readFileSync(join(cwd, 'citus-migrate.yaml'), 'utf8')).toBe('version: 1\n');
  });
});

describe('cluster up --port', () => {
  it.each([
    [['--port', '0'], '--port must be a whole number from 1 to 65535 (got "0")'],
    [['--port', '65536'], '--port must be a whole number from 1 to 65535 (got "65536")'],
    [['--port', 'abc'], '--port must be a whole number from 1 to 65535 (got "abc")'],
    [['--port', '5432.5'], '--port must be a whole number from 1 to 65535 (got "5432.5")'],
    [
      ['--port', '65534'],
      "--port 65534 leaves no room for 2 workers: they listen on the ports right after the coordinator's, up to 65535",
    ],
    [['--workers', '-1'], '--workers must be a whole number from 0 to 16 (got "-1")'],
  ])('%j is a usage error (exit 64)', async (args, message) => {
    const cwd = tmp();
    const r = await cli(['cluster', 'up', '--dir', 'c', ...args], { cwd });
    expect(r).toEqual({ code: 64, stdout: '', stderr: `error: ${message}\n` });
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('cluster down removes only what up created', () => {
  it('keeps a file the user put in the folder, and the folder', async () => {
    const cwd = tmp();
    fakeCluster(join(cwd, 'c'));
    writeFileSync(join(cwd, 'c', 'notes.txt'), 'mine\n');
    writeFileSync(join(cwd, 'next-to-it.txt'), 'mine too\n');
    const r = await cli(['cluster', 'down', '--dir', 'c'], { cwd });
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr: `stopped 0 nodes and removed the files cluster up created in c\nkept ${join(cwd, 'c')}: it holds files cluster up did not create\n`,
    });
    expect(readdirSync(join(cwd, 'c'))).toEqual(['notes.txt']);
    expect(readdirSync(cwd).sort()).toEqual(['c', 'next-to-it.txt']);
  });

  it('removes the folder it created once it is empty', async () => {
    const cwd = tmp();
    fakeCluster(join(cwd, 'c'));
    writeFileSync(join(cwd, 'next-to-it.txt'), 'mine\n');
    expect((await cli(['cluster', 'down', '--dir', 'c'], { cwd })).code).toBe(0);
    expect(readdirSync(cwd)).toEqual(['next-to-it.txt']);
  });

  it('refuses a cluster.json edited to point outside its folder, and removes nothing', async () => {
    const cwd = tmp();
    const state = fakeCluster(join(cwd, 'c'));
    writeFileSync(join(cwd, 'precious.txt'), 'mine\n');
    const tampered = {
      ...state,
      dataRoot: cwd,
      created: { dirs: [cwd], paths: [join(cwd, 'precious.txt'), ...state.created.paths] },
    };
    writeFileSync(join(cwd, 'c', 'cluster.json'), JSON.stringify(tampered));
    const r = await cli(['cluster', 'down', '--dir', 'c'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        `error: refusing to remove anything: ${join(cwd, 'c', 'cluster.json')} was not written by citus-migrate cluster up, or was edited since:`,
        `  - its data folder ${cwd} is neither ${join(cwd, 'c')} nor a citus-migrate-data-* folder cluster up made`,
        `  - node coordinator has its data in ${join(cwd, 'c', 'coordinator')}, not in ${join(cwd, 'coordinator')}`,
        `  - node worker1 has its data in ${join(cwd, 'c', 'worker1')}, not in ${join(cwd, 'worker1')}`,
        ...[join(cwd, 'precious.txt'), ...state.created.paths.slice(0, 4)].map(
          (p) => `  - it lists ${p}, which cluster up never creates`,
        ),
        'Stop the nodes with pg_ctl and remove their folders by hand.',
        '',
      ].join('\n'),
    );
    expect(readFileSync(join(cwd, 'precious.txt'), 'utf8')).toBe('mine\n');
    expect(readdirSync(join(cwd, 'c')).sort()).toEqual([
      'cluster.json',
      'coordinator',
      'coordinator.log',
      'worker1',
      'worker1.log',
    ]);
  });

  it('refuses a cluster.json that is not one up writes', async () => {
    const cwd = tmp();
    mkdirSync(join(cwd, 'c'));
    writeFileSync(
      join(cwd, 'c', 'cluster.json'),
      JSON.stringify({ version: 1, citus: true, nodes: 'all of them', dataRoot: cwd }),
    );
    const r = await cli(['cluster', 'down', '--dir', 'c'], { cwd });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${join(cwd, 'c', 'cluster.json')} is not a cluster.json written by this version of citus-migrate cluster up (nodes: Invalid input: expected array, received string); nothing was stopped or removed\n`,
    });
    expect(existsSync(join(cwd, 'c', 'cluster.json'))).toBe(true);
  });

  it('says how to stop a cluster an earlier version started, and removes nothing', async () => {
    const cwd = tmp();
    mkdirSync(join(cwd, 'c'));
    const file = join(cwd, 'c', 'cluster.json');
    writeFileSync(
      file,
      JSON.stringify({
        citus: true,
        nodes: [{ name: 'coordinator', port: 5432, dataDir: join(cwd, 'd', 'coordinator') }],
        dataRoot: join(cwd, 'd'),
      }),
    );
    const r = await cli(['cluster', 'down', '--dir', 'c'], { cwd });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${file} was written by an earlier citus-migrate, which did not record what it created, so nothing is removed automatically; stop its nodes with: pg_ctl -D ${join(cwd, 'd', 'coordinator')} stop (as the postgres user when they run as postgres), then remove ${join(cwd, 'd')} and ${file} yourself\n`,
    });
    expect(existsSync(file)).toBe(true);
  });
});

describe('removalProblems', () => {
  const dir = '/home/u/proj/.citus-migrate/cluster';
  const state = (over: Partial<ClusterState> = {}): ClusterState => ({
    version: 1,
    citus: true,
    dataRoot: dir,
    nodes: [{ name: 'coordinator', port: 5432, dataDir: `${dir}/coordinator` }],
    created: {
      dirs: ['/home/u/proj/.citus-migrate', dir],
      paths: [`${dir}/coordinator`, `${dir}/coordinator.log`, `${dir}/cluster.json`],
    },
    ...over,
  });
  const kinds =
    (m: Record<string, string> = {}) =>
    (p: string) =>
      (m[p] ?? 'missing') as never;

  it('accepts what up writes', () => {
    expect(
      removalProblems(
        dir,
        state(),
        '/home/u/proj',
        kinds({ [`${dir}/coordinator`]: 'pgdata', [`${dir}/coordinator.log`]: 'file' }),
      ),
    ).toEqual([]);
  });

  it('refuses the root, the parent, the current folder and a folder that is not a data directory', () => {
    const s = state({
      created: { dirs: ['/', '/home/u/proj'], paths: ['/', `${dir}/..`, `${dir}/coordinator`, '/home/u/proj'] },
    });
    expect(removalProblems(dir, s, '/home/u/proj', kinds({ [`${dir}/coordinator`]: 'dir' }))).toEqual([
      'it lists /, which cluster up never creates',
      `it lists ${dir}/.., which cluster up never creates`,
      `it lists ${dir}/coordinator, which is a folder that is not a PostgreSQL data directory`,
      'it lists /home/u/proj, which cluster up never creates',
      `it lists the folder /, which is neither ${dir}, one of its parents, nor its data folder`,
    ]);
  });

  it('refuses a data folder elsewhere unless up made it in the temp dir', () => {
    const root = join(tmpdir(), 'citus-migrate-data-abc');
    const ok = state({
      dataRoot: root,
      nodes: [{ name: 'coordinator', port: 5432, dataDir: `${root}/coordinator` }],
      created: { dirs: [dir, root], paths: [`${root}/coordinator`, `${dir}/cluster.json`] },
    });
    expect(removalProblems(dir, ok, '/', kinds())).toEqual([]);
    const home = {
      ...ok,
      dataRoot: '/home/u',
      nodes: [{ name: 'coordinator', port: 5432, dataDir: '/home/u/coordinator' }],
      created: { dirs: [dir, '/home/u'], paths: ['/home/u/coordinator'] },
    };
    expect(removalProblems(dir, home, '/', kinds())).toEqual([
      `its data folder /home/u is neither ${dir} nor a citus-migrate-data-* folder cluster up made`,
    ]);
  });
});

describe('cluster up on a folder whose cluster runs', () => {
  const local = { engine: 'local', port: 9700, workers: 2 } as const;
  const docker = { engine: 'docker', port: 9700, workers: 2, image: 'citusdata/citus:13.2' } as const;

  it('agrees when no flag is given, or the flags describe the running cluster', () => {
    expect(runningClusterDifferences(local, {})).toEqual([]);
    expect(runningClusterDifferences(local, { engine: 'auto', port: 9700, workers: 2 })).toEqual([]);
    expect(runningClusterDifferences(docker, { engine: 'docker', image: 'citusdata/citus:13.2' })).toEqual([]);
  });

  it('names every flag that differs: port, workers, engine, image', () => {
    expect(runningClusterDifferences(local, { port: 9800, workers: 3 })).toEqual([
      '--port 9800, but its coordinator listens on 9700',
      '--workers 3, but it has 2',
    ]);
    expect(runningClusterDifferences(local, { engine: 'docker' })).toEqual([
      '--engine docker, but it runs on local binaries',
    ]);
    expect(runningClusterDifferences(docker, { engine: 'local', workers: 0 })).toEqual([
      '--engine local, but it runs on containers',
      '--workers 0, but it has 2',
    ]);
    expect(runningClusterDifferences(docker, { engine: 'docker', image: 'citusdata/citus:12.1' })).toEqual([
      '--image citusdata/citus:12.1, but it runs citusdata/citus:13.2',
    ]);
  });
});
