// Each routine file is read once per command, and parsed once: the manifest's resolve, the
// locality analysis (validate/plan's warnings) and analyze() all use the first read (#25). The
// reads are counted through an injected ManifestFs.
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/api/analyze.js';
import { loadManifest, type ManifestFs } from '../../src/manifest/load.js';
import { nodeFs } from '../../src/manifest/project-io.js';
import { loadParser } from '../../src/sql/pg-parse.js';
import { parseRoutineSql } from '../../src/sql/routine-parse.js';

const MANIFEST = `version: 1
colocation:
  warehouse: { shard_count: 8, anchor: warehouse }
tables:
  warehouse:
    columns: { w_id: { type: int, not_null: true }, w_ytd: numeric }
    primary_key: [w_id]
    distributed_by: w_id
    colocation: warehouse
routines:
  pay: { file: routines/pay.sql, distributed_by: p_w_id, colocation: warehouse }
  total: { file: routines/total.sql }
`;
const PAY = `-- pays into one warehouse
CREATE PROCEDURE pay(p_w_id int, p_amount numeric)
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w_id;
  UPDATE warehouse SET w_ytd = w_ytd + 0;
END $$;
`;
const TOTAL = `CREATE FUNCTION total() RETURNS numeric LANGUAGE sql AS $$ SELECT sum(w_ytd) FROM warehouse $$;\n`;

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cm-read-once-'));
  mkdirSync(join(dir, 'routines'));
  writeFileSync(join(dir, 'citus-migrate.yaml'), MANIFEST);
  writeFileSync(join(dir, 'routines/pay.sql'), PAY);
  writeFileSync(join(dir, 'routines/total.sql'), TOTAL);
  return dir;
}

/** nodeFs, counting the reads of each file (by its name in the folder). */
function countingFs(): { fs: ManifestFs; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const count = (p: string): void => {
    const name = p.split('/').slice(-2).join('/');
    reads.set(name, (reads.get(name) ?? 0) + 1);
  };
  return {
    reads,
    fs: {
      readFile: (p) => (count(p), nodeFs.readFile(p)),
      size: (p) => nodeFs.size(p),
      readProjectFile: (p, root) => (count(p), nodeFs.readProjectFile!(p, root)),
      listSql: (p, root) => nodeFs.listSql!(p, root),
    },
  };
}

describe('routine files are read once', () => {
  it('by loadManifest (resolve and the locality warnings) and by analyze() after it', async () => {
    const { fs, reads } = countingFs();
    const dir = project();
    const m = await loadManifest('citus-migrate.yaml', fs, dir);
    // The locality analysis ran (it warns about the second UPDATE) on the text already read.
    expect(m.warnings.map((w) => w.code)).toContain('statement_cross_shard');
    expect(reads.get('routines/pay.sql')).toBe(1);
    expect(reads.get('routines/total.sql')).toBe(1);
    const doc = await analyze(m);
    expect(doc.routines.map((r) => r.routine)).toEqual(['public.pay(integer, numeric)']);
    expect(reads.get('routines/pay.sql')).toBe(1);
    expect(reads.get('routines/total.sql')).toBe(1);
  });

  it('a routine text is parsed once: the second parse is the first one', async () => {
    await loadParser();
    const first = parseRoutineSql(TOTAL);
    expect(parseRoutineSql(TOTAL)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.args)).toBe(true);
  });
});
