// Which of the global setup's server sets this test file uses. A file claims a set by creating
// `set-<i>` in the run's claims directory (O_EXCL, holding its pid) and frees it when its hooks are
// done (drop-databases.ts), so two files running at once never share a server: roles, settings
// and locks are per server. VITEST_POOL_ID cannot be trusted for this: vitest 4 hands the same
// id to two files at once after a group of another size (a late free of the previous group's id).
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const WAIT_MS = 120_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

let claimed: { dir: string; index: number } | null = null;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryClaim(path: string): boolean {
  try {
    const fd = openSync(path, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  // A holder that died without freeing its set (a worker killed at a timeout) leaves it free.
  let holder = NaN;
  try {
    holder = Number(readFileSync(path, 'utf8'));
  } catch {
    return false;
  }
  if (!Number.isInteger(holder) || holder <= 0 || alive(holder)) return false;
  try {
    unlinkSync(path);
  } catch {
    return false;
  }
  return tryClaim(path);
}

/** This file's set among `count` (0 when there is one); waits while every set is in use. */
export function claimServerSet(dir: string, count: number): number {
  if (count <= 1) return 0;
  if (claimed) return claimed.index;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    for (let index = 0; index < count; index++)
      if (tryClaim(join(dir, `set-${index}`))) {
        claimed = { dir, index };
        process.once('exit', freeServerSet);
        return index;
      }
    if (Date.now() > deadline)
      throw new Error(`no server set came free in ${WAIT_MS / 1000} s (${count} sets, claims in ${dir})`);
    Atomics.wait(sleeper, 0, 0, 50);
  }
}

/** Frees this file's set, if it claimed one and still holds it. */
export function freeServerSet(): void {
  if (!claimed) return;
  const path = join(claimed.dir, `set-${claimed.index}`);
  claimed = null;
  try {
    if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
  } catch {
    // already gone
  }
}
