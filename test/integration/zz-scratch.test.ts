import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { freshDatabase, sql } from '../support/db.js';
import { hostileRole } from '../support/hostile.js';
import { HOSTILE_CITUS_SETTINGS, HOSTILE_SETTINGS, plantEverything } from '../support/plant.js';
import { runCommands } from '../support/run-commands.js';
import { recordQueries } from '../support/sql-audit.js';
it('plant', async () => {
  const info = {
    user: 'postgres',
    citus: true,
    nodes: [9700, 9701, 9702].map((port) => ({ host: '127.0.0.1', port })),
  };
  const dir = mkdtempSync(join(tmpdir(), 'cm-scr-'));
  cpSync(join(import.meta.dirname, '../../templates/saas'), dir, { recursive: true });
  const clean = await freshDatabase(info, 'clean');
  const rec = recordQueries();
  await runCommands(clean.url, dir, [
    { args: ['apply', '--auto-approve'], code: 0 },
    { args: ['plan', '--shards'], code: 0 },
    { args: ['history'], code: 0, noManifest: true },
  ]);
  rec.stop();
  const db = await freshDatabase(info, 'scratch');
  await sql(info, db.name, 'CREATE EXTENSION IF NOT EXISTS citus_columnar');
  const h = await hostileRole(info, db, { owner: true });
  await plantEverything(info, db, h, rec.texts, [...HOSTILE_SETTINGS, ...HOSTILE_CITUS_SETTINGS]);
  writeFileSync('/tmp/exp/scratch-db.txt', `${db.url} ${h.role} ${dir}\n`);
  console.log('before', await h.breaches());
  console.log('again', await h.breaches());
}, 600_000);
