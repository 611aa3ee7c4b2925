// Routine bodies of real size: the SQL scanner of libpg_query cuts any token over about a
// kilobyte short (a routine's body is one token), which made validate, plan, analyze and bench
// fail with "Unterminated string in JSON" on a 2.5 KB procedure. Bodies of 100 KB, with long
// string constants inside, validate, and an error deep inside is still located.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/run-cli.js';

const MANIFEST = `version: 1
tables:
  t: { distributed_by: id, columns: { id: { type: int, not_null: true }, v: text } }
routines:
  big: { file: big.sql, distributed_by: $1, colocate_with: t }
`;

function body(statements: number, broken?: number): string {
  const lines: string[] = [];
  for (let i = 0; i < statements; i++) {
    if (i === broken) lines.push('  SELEC 1;');
    else if (i % 50 === 0)
      lines.push(`  y := '${'long text '.repeat(300)}';`); // a 3 KB string token inside the body
    else lines.push(`  UPDATE t SET v = v || 'step ${i}' WHERE id = a; SELECT count(*) INTO x FROM t WHERE id = a;`);
  }
  return `CREATE FUNCTION big(a integer) RETURNS text LANGUAGE plpgsql AS $$\nDECLARE x int := 0; y text := '';\nBEGIN\n${lines.join('\n')}\n  RETURN y;\nEND $$;\n`;
}

function project(sql: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cm-big-'));
  writeFileSync(join(dir, 'citus-migrate.yaml'), MANIFEST);
  writeFileSync(join(dir, 'big.sql'), sql);
  return dir;
}

describe('PL/pgSQL bodies of real size', () => {
  it('a 100 KB body with long strings inside validates and plans', async () => {
    const sql = body(1000);
    expect(sql.length).toBeGreaterThan(100_000);
    const dir = project(sql);
    const v = await cli(['validate', '-f', dir]);
    expect(v.stderr).not.toContain('JSON');
    expect(v.code).toBe(0);
    const p = await cli(['plan', '--offline', '-f', dir, '--format', 'json']);
    expect(p.code).toBe(0);
  });

  it('an error deep inside a large body is reported at its line', async () => {
    const dir = project(body(400, 333));
    const v = await cli(['validate', '-f', dir]);
    expect(v.code).toBe(1);
    // The statement list starts on line 4 of the file.
    expect(v.stderr).toMatch(new RegExp(`big\\.sql:${333 + 4}:\\d+`));
  });
});
