// What plan --prove's findings become (plan/proof.ts): a refusal or no convergence on a copy that
// plans as the database does is a plan problem; on a copy that differs, or naming what the copy
// lacks, it proves nothing and the line says why.
import { describe, expect, it } from 'vitest';
import { proofLine, proofProblems, type PlanProof } from '../../src/plan/proof.js';

const base: PlanProof = {
  scratch: 'u@h:5432/citus_migrate_prove_0123456789',
  copyDiffers: [],
  ran: 3,
  remaining: [],
  ms: 1234,
  leftBehind: [],
};
const refused = {
  step: 2,
  summary: 'create index public.i',
  object: 'index public.i',
  sqlstate: '0A000',
  message: 'no',
};

describe('plan --prove findings', () => {
  it('a refusal on a faithful copy is a problem; the line says where it ran and what happened', () => {
    const p = { ...base, refused };
    expect(proofProblems(p)).toEqual([
      {
        code: 'refused_on_copy',
        object: 'index public.i',
        message:
          'step 2 (create index public.i) was refused when --prove ran the plan on a copy of the database: 0A000 no',
      },
    ]);
    expect(proofLine(p)).toBe(
      'Run on a copy without rows by --prove (u@h:5432/citus_migrate_prove_0123456789, 1.2 s): 3 step(s) ran, refused at step 2; the copy planned the same.',
    );
  });

  it('no convergence is a problem naming what planning again wants', () => {
    expect(proofProblems({ ...base, remaining: ['add column x'] })).toEqual([
      expect.objectContaining({
        code: 'not_converged_on_copy',
        message: expect.stringContaining('still wants 1 step(s): add column x'),
      }),
    ]);
  });

  it('on a copy that differs, or naming what the copy lacks, nothing is proved and nothing is a problem', () => {
    const differs = { ...base, refused, copyDiffers: ['the copy as built: x'] };
    expect(proofProblems(differs)).toEqual([]);
    expect(proofLine(differs)).toContain(
      "not proved: refused at step 2 (0A000 no), but the copy differs from the database (the copy as built: x), so that may be the copy's",
    );
    const lacks = { ...base, refused: { ...refused, lacks: ['collation c.nocase'] } };
    expect(proofProblems(lacks)).toEqual([]);
    expect(proofLine(lacks)).toContain('not proved: step 2 needs collation c.nocase, which the copy lacks');
  });

  it('a scratch database that could not be dropped is named', () => {
    expect(proofLine({ ...base, leftBehind: ['u@w1:5432/postgres: timeout'] })).toContain(
      'the scratch database could not be dropped on: u@w1:5432/postgres: timeout (drop it by hand)',
    );
  });
});
