// --timings / CITUS_MIGRATE_TIMINGS=1: the phases of a command on stderr (their names, not their
// values: times are never asserted).
import { describe, expect, it } from 'vitest';
import { formatTimings, recordPhase, startTimings, stopTimings, timed } from '../../src/util/timings.js';
import { cli } from '../support/run-cli.js';
import { ACCOUNTS_MANIFEST, projectDir } from '../support/project.js';

/** The phase names --timings printed, in order. */
const phases = (stderr: string): string[] =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('timings: '))
    .map((l) =>
      l
        .slice('timings: '.length)
        .replace(/\s+-?[\d.]+\s+-?[\d.]+$/, '')
        .trim(),
    );

describe('--timings', () => {
  it('prints the phases of an offline plan on stderr, after the plan on stdout', async () => {
    const dir = projectDir(ACCOUNTS_MANIFEST);
    const r = await cli(['plan', '--offline', '--timings'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('create table public.accounts');
    expect(r.stdout).not.toContain('timings:');
    const names = phases(r.stderr);
    expect(r.stderr.split('\n').find((l) => l.startsWith('timings: '))).toMatch(/^timings: phase +at ms +ms$/);
    expect(names.at(-1)).toBe('total');
    for (const p of ['load command', 'read manifest', 'load parser', 'parse manifest', 'validate manifest'])
      expect(names).toContain(p);
    for (const p of ['resolve manifest', 'diff', 'render', 'write']) expect(names).toContain(p);
  });

  it('CITUS_MIGRATE_TIMINGS=1 does the same; without either nothing is printed', async () => {
    const dir = projectDir(ACCOUNTS_MANIFEST);
    const on = await cli(['plan', '--offline'], { cwd: dir, env: { CITUS_MIGRATE_TIMINGS: '1' } });
    expect(phases(on.stderr)).toContain('diff');
    const off = await cli(['plan', '--offline'], { cwd: dir });
    expect(off.stderr).toBe('');
  });

  it('is printed also when the command fails', async () => {
    const dir = projectDir('version: 1\ntables:\n  t: { bogus: 1 }\n');
    const r = await cli(['validate', '--timings'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown key "bogus"');
    expect(phases(r.stderr)).toEqual(expect.arrayContaining(['load command', 'parse manifest', 'total']));
  });

  it('lists phases in the order they started, each with when it started and how long it took', () => {
    expect(
      formatTimings(
        [
          { name: 'b', start: 20, ms: 5 },
          { name: 'a phase', start: 10, ms: 30.25 },
        ],
        50,
      ),
    ).toBe(
      [
        'timings: phase     at ms      ms',
        'timings: a phase    10.0    30.3',
        'timings: b          20.0     5.0',
        'timings: total       0.0    50.0',
        '',
      ].join('\n'),
    );
  });

  it('records nothing when off, and a promise until it settles when on', async () => {
    expect(timed('x', () => 1)).toBe(1);
    recordPhase('y', 0);
    expect(stopTimings()).toEqual([]);
    startTimings();
    await timed('wait', () => new Promise((r) => setTimeout(r, 5)));
    const got = stopTimings();
    expect(got.map((p) => p.name)).toEqual(['wait']);
    expect(got[0]!.ms).toBeGreaterThan(0);
  });
});
