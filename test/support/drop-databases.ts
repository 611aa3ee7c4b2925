// Run before every integration test file (vitest.config.ts's setupFiles): once the file's tests
// and its own hooks are done, the Citus databases it made are dropped (db.ts's dropMadeOnCitus)
// and its set of servers is free for the next file (server-claim.ts).
import { afterAll } from 'vitest';
import { dropMadeOnCitus } from './db.js';
import { freeServerSet } from './server-claim.js';

afterAll(async () => {
  try {
    await dropMadeOnCitus();
  } finally {
    freeServerSet();
  }
}, 180_000);
