// The cluster library without the CLI: typed results from clusterUp/Down/Status, exported from
// the package's front door (the commands only print them).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clusterDown, clusterStatus, clusterUp, UsageError } from '../../src/index.js';

describe('cluster library', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'cm-cluster-api-'));

  it('reports no cluster in an empty folder, as data', async () => {
    const notes: string[] = [];
    expect(await clusterStatus({ cwd, dir: 'none' })).toBeUndefined();
    expect(await clusterDown({ cwd, dir: 'none' }, (l) => notes.push(l))).toBe(false);
    expect(notes).toEqual([]);
  });

  it('refuses flags the CLI refuses, before touching anything', async () => {
    await expect(clusterUp({ cwd, dir: 'x', workers: 17 })).rejects.toThrow(UsageError);
    await expect(clusterUp({ cwd, dir: 'x', workers: 1, port: 65535 })).rejects.toThrow(/leaves no room for 1 worker/);
  });
});
