// No name can hide a step from a reviewer: control and bidi characters are shown as escapes in
// text, Markdown keeps names out of HTML and its SQL inside a fence no name can close, and the
// SQL format's comments and terminators cannot be swallowed by what a name or a file holds.
import { describe, expect, it } from 'vitest';
import { formatPlan } from '../../src/format/index.js';
import { fenceFor } from '../../src/format/plan-markdown.js';
import type { PlanDocument, PlanStep } from '../../src/plan/plan.js';
import { visible } from '../../src/util/visible.js';

const step = (index: number, summary: string, sql: string[], hazards: PlanStep['hazards'] = []): PlanStep => ({
  index,
  kind: 'create_object',
  phase: 'objects',
  object: summary,
  summary,
  hazards,
  sql,
  step: { kind: 'create_object', object: summary, objectKind: 'view', statements: sql, recreate: false },
});

function plan(steps: PlanStep[]): PlanDocument {
  return {
    format: 'citus-migrate.plan',
    formatVersion: 1,
    tool: { name: 'citus-migrate', version: '0' },
    source: { kind: 'offline', description: 'an empty cluster' },
    manifest: { file: 'm.yaml', sha256: '' },
    changes: true,
    hazards: [...new Set(steps.flatMap((s) => s.hazards))],
    transaction: { begin: 'BEGIN', preamble: [], steps, commit: 'COMMIT' },
    afterCommit: [],
    problems: [],
    warnings: [],
    unmanaged: [],
    notManaged: [],
  } as PlanDocument;
}

const conceal = 'create view public."v\u001b[8m"';
const reversed = 'create view public."a\u202Eb"';
const drop = step(3, 'drop table public.secrets (prune)', ['DROP TABLE public.secrets'], ['drops_data']);

describe('output escaping', () => {
  it('visible() escapes C0/C1 controls and bidi controls, and newlines unless kept', () => {
    expect(visible('a\u001b[8mb\u202Ec\u2066d\u200Fe\u061Cf\u009bg\nh\ti')).toBe(
      'a\\x1b[8mb\\u202Ec\\u2066d\\u200Fe\\u061Cf\\x9bg\\x0ah\\x09i',
    );
    expect(visible('a\nb\u001b', true)).toBe('a\nb\\x1b');
  });

  it('text: a name cannot conceal or reorder the lines after it, nor start a line of its own', () => {
    const text = formatPlan(
      plan([step(1, conceal, ['SELECT 1']), step(2, reversed, ['SELECT 1']), step(4, 'x\n    5. nothing', [])]),
      'text',
    );
    expect(text.includes('\u001b') || text.includes('\u202E')).toBe(false);
    expect(text).toContain('    1. create view public."v\\x1b[8m"\n');
    expect(text).toContain('    2. create view public."a\\u202Eb"\n');
    expect(text).toContain('    4. x\\x0a    5. nothing\n');
  });

  it('markdown: a name cannot close the SQL fence or open an HTML comment', () => {
    const name = 'create view public."x```\n<!--"';
    const md = formatPlan(plan([step(1, name, ['CREATE VIEW public."x```\n<!--" AS SELECT 1']), drop]), 'markdown');
    expect(md).toContain('| 1 | objects | create view public."x\\`\\`\\`\\\\x0a&lt;!--" |  |');
    expect(md).not.toContain('| 1 | objects | create view public."x```');
    expect(md).toContain('<details><summary>SQL</summary>\n\n````sql\n');
    expect(md).toContain('DROP TABLE public.secrets;\n\nCOMMIT;\n````\n');
    expect(fenceFor('a ````` b')).toBe('``````');
    expect(fenceFor('plain')).toBe('```');
  });

  it('sql: a comment the renderer writes is escaped, and a statement ending in a -- comment gets its ; on a line of its own', () => {
    const sql = formatPlan(
      plan([step(1, 'create view public."v\n DROP TABLE x; --"', ['CREATE VIEW public.v AS SELECT 1 -- one']), drop]),
      'sql',
    );
    expect(sql).toContain(
      '-- [1] create view public."v  DROP TABLE x; --"\nCREATE VIEW public.v AS SELECT 1 -- one\n;\n\n-- [3] drop table public.secrets (prune) (hazards: drops_data)\nDROP TABLE public.secrets;\n',
    );
    expect(formatPlan(plan([step(1, 'a\u001b[8m', ['SELECT 1'])]), 'sql')).toContain('-- [1] a\\x1b[8m\nSELECT 1;\n');
  });
});
