// Run before every integration test file (vitest.config.ts's setupFiles): once the file's tests
// and its own hooks are done, the Citus databases it made are dropped (db.ts's dropMadeOnCitus).
import { afterAll } from 'vitest';
import { dropMadeOnCitus } from './db.js';

afterAll(dropMadeOnCitus, 180_000);
