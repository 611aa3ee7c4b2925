// Is a pooler in transaction mode (PgBouncer's pool_mode = transaction) between bench and the
// server? There a client connection gets a server connection per transaction, so session state —
// a named prepared statement, a SET — does not outlive the transaction. Seen deterministically:
// client A reads its backend's pid; client B holds that backend in a statement (a pooler hands
// out its most recently used idle server first); A asks again. Directly connected (or in session
// pooling), A's backend never changes.
import pg from 'pg';
import { connectSession } from '../db/session.js';

export interface PoolerProbe {
  /** Session state does not outlive a transaction on this connection. */
  readonly transactionPooling: boolean;
  /** What was seen: the backend pids of one client connection. */
  readonly evidence: string;
}

const pid = async (c: pg.Client): Promise<number> =>
  Number((await c.query('SELECT pg_catalog.pg_backend_pid() AS pid')).rows[0].pid);

/** Probes the connection `config` leads to (about 0.3 s). */
export async function probePooler(config: pg.ClientConfig): Promise<PoolerProbe> {
  const a = new pg.Client(config);
  const b = new pg.Client(config);
  a.on('error', () => undefined);
  b.on('error', () => undefined);
  try {
    await connectSession(a);
    await connectSession(b);
    const first = await pid(a);
    const holding = b.query('SELECT pg_catalog.pg_backend_pid() AS pid, pg_catalog.pg_sleep(0.3)');
    await new Promise((r) => setTimeout(r, 100));
    const second = await pid(a);
    const held = Number((await holding).rows[0].pid);
    return first === second
      ? { transactionPooling: false, evidence: `one client connection kept backend ${first}` }
      : {
          transactionPooling: true,
          evidence: `one client connection had backend ${first}, then ${second} while another client used ${held}`,
        };
  } finally {
    await Promise.all([a.end().catch(() => undefined), b.end().catch(() => undefined)]);
  }
}

/** The explanation of the SQLSTATEs a named prepared statement gets behind such a pooler. */
export const NAMED_STATEMENT_ERRORS: Readonly<Record<string, string>> = {
  '26000': 'prepared statement does not exist',
  '42P05': 'prepared statement already exists',
};
