// A second Ctrl-C exits at once (io.ts): before it does, the apply says which backend may still
// run its statement and hold its locks, how to end it, and what becomes of the history row.
import { describe, expect, it } from 'vitest';
import { watchInterrupts, type InterruptSignal } from '../../src/apply/interrupt.js';
import type { Queryable } from '../../src/db/connect.js';

const db = { query: async () => ({ rows: [{ pid: 4242 }] }) } as unknown as Queryable;
// Port 1: the first signal's cancel fails to connect, and says so.
const target = { config: { host: '127.0.0.1', port: 1 }, label: 'app@db:5432/prod', tlsFallback: false };

describe('a second signal', () => {
  it('names the backend left running, the call that ends it, and the history row', async () => {
    let handler: ((s: InterruptSignal, again?: boolean) => void) | undefined;
    const said: string[] = [];
    const interrupts = await watchInterrupts(
      (h) => {
        handler = h;
        return () => undefined;
      },
      target,
      db,
      (t) => said.push(t),
    );
    interrupts.historyId = 7;
    handler!('SIGINT');
    expect(interrupts.signal.aborted).toBe(true);
    handler!('SIGINT', true);
    await interrupts.cancelled();
    expect(said[0]).toBe(
      "SIGINT: cancelling the apply's statement on the server (backend 4242) ... (again to exit at once)\n",
    );
    expect(said[1]).toBe(
      "SIGINT again: exiting now, without waiting for the server. It may still be running the apply's statement, and holding its locks, until it notices: backend 4242 on app@db:5432/prod (SELECT pg_catalog.pg_terminate_backend(4242) ends it and rolls its transaction back); history row 7 stays 'running' until the next apply marks it aborted\n",
    );
    expect(said[2]).toMatch(/^could not cancel backend 4242: /);
  });
});
