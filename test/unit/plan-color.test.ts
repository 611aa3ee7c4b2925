// Colour on a terminal only, around the tool's own words: hazard tags, headlines, problems,
// warnings. Never in SQL, JSON or markdown; names are escaped before any colour is added.
import { describe, expect, it } from 'vitest';
import { formatPlan } from '../../src/format/index.js';
import type { PlanDocument, PlanStep } from '../../src/plan/plan.js';
import { cli } from '../support/run-cli.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line no-control-regex -- SGR codes are the point
const SGR = /\x1b\[\d+m/g;

const step = (index: number, summary: string, hazards: PlanStep['hazards'] = []): PlanStep => ({
  index,
  kind: 'create_object',
  phase: 'objects',
  object: summary,
  summary,
  hazards,
  sql: ['SELECT 1'],
  step: { kind: 'create_object', object: summary, objectKind: 'view', statements: ['SELECT 1'], recreate: false },
});

function plan(steps: PlanStep[], extra: Partial<PlanDocument> = {}): PlanDocument {
  return {
    format: 'citus-migrate.plan',
    formatVersion: 1,
    tool: { name: 'citus-migrate', version: '0' },
    source: { kind: 'offline', description: 'an empty cluster' },
    manifest: { file: 'm.yaml', sha256: '' },
    changes: steps.length > 0,
    hazards: [...new Set(steps.flatMap((s) => s.hazards))],
    transaction: { begin: 'BEGIN', preamble: [], steps, commit: 'COMMIT' },
    afterCommit: [],
    problems: [],
    warnings: [],
    unmanaged: [],
    notManaged: [],
    ...extra,
  } as PlanDocument;
}

const risky = plan(
  [step(1, 'create view public."v\u001b[8m"'), step(2, 'drop table public.t (prune)', ['drops_data'])],
  {
    warnings: [{ severity: 'warning', code: 'w', message: 'careful', path: 'tables.t' }],
  },
);

describe('plan text colour', () => {
  it('is the same text with the codes taken out; hazards yellow, warnings yellow', () => {
    const plain = formatPlan(risky, 'text');
    const coloured = formatPlan(risky, 'text', true);
    expect(plain).not.toMatch(SGR);
    expect(coloured.replace(SGR, '')).toBe(plain);
    expect(coloured).toContain('drop table public.t (prune)  \x1b[33m[drops_data]\x1b[39m');
    expect(coloured).toContain('\x1b[33mWarnings:\x1b[39m');
    // The name's ESC is still shown escaped; the only ESCs are the palette's.
    expect(coloured).toContain('public."v\\x1b[8m"');
    expect(coloured.replace(SGR, '')).not.toContain('\x1b');
  });

  it('"No changes" green, problems red', () => {
    expect(formatPlan(plan([]), 'text', true)).toContain(
      '\x1b[32mNo changes: the cluster matches the manifest.\x1b[39m',
    );
    const bad = formatPlan(
      plan([], { problems: [{ object: 'table public.t', message: 'cannot' }] as unknown as PlanDocument['problems'] }),
      'text',
      true,
    );
    expect(bad).toContain('\x1b[31m1 problem: the plan cannot be applied until it is fixed.\x1b[39m');
    expect(bad).toContain('\x1b[31m\x1b[1mProblems:\x1b[22m\x1b[39m');
  });

  it('never in sql, json or markdown, even when asked', () => {
    for (const f of ['sql', 'json', 'markdown'] as const) expect(formatPlan(risky, f, true)).not.toMatch(SGR);
  });
});

describe('the CLI decides', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cm-color-'));
  writeFileSync(
    join(dir, 'citus-migrate.yaml'),
    'version: 1\ntables:\n  t: { local: true, columns: { id: bigint } }\n',
  );
  const run = async (args: string[], color: boolean) => {
    let stdout = '';
    const { runCli } = await import('../../src/cli-program.js');
    const code = await runCli(args, {
      stdout: (t) => {
        stdout += t;
      },
      stderr: () => undefined,
      env: {},
      isTTY: false,
      cwd: dir,
      color: { stdout: color, stderr: color },
    });
    return { code, stdout };
  };

  it('colours plan text when io says stdout is a terminal; --no-color and --format sql or -o do not', async () => {
    expect((await run(['plan', '--offline'], true)).stdout).toMatch(SGR);
    expect((await run(['plan', '--offline', '--no-color'], true)).stdout).not.toMatch(SGR);
    expect((await run(['plan', '--no-color', '--offline'], true)).code).toBe(0);
    expect((await run(['plan', '--offline', '--format', 'sql'], true)).stdout).not.toMatch(SGR);
    expect((await run(['plan', '--offline', '-o', 'p.txt'], true)).stdout).toBe('');
    expect((await run(['validate'], true)).stdout).toBe(
      '\x1b[32mcitus-migrate.yaml is valid\x1b[39m (1 table, 0 routines, 0 sequences)\n',
    );
    // Captured (as in every other test): no colour.
    expect((await cli(['plan', '--offline'], { cwd: dir })).stdout).not.toMatch(SGR);
  });
});
