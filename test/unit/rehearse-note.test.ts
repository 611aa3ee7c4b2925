// apply --rehearse says what the rollback does not undo, not "nothing was kept".
import { describe, expect, it } from 'vitest';
import { rehearseText } from '../../src/apply/rehearse-note.js';
import type { PlanStep } from '../../src/plan/plan.js';

const step = (_index: number, kind: PlanStep['kind']): Pick<PlanStep, 'kind'> => ({ kind });

describe('rehearseText', () => {
  it('without Citus steps: rolled back, but sequence values are not given back', () => {
    expect(rehearseText([step(1, 'create_table'), step(2, 'create_index')], [])).toBe(
      'Rehearsed 2 steps on the cluster and rolled back: the transaction runs, and its changes are gone on the coordinator (the history schema too). Not rolled back: values drawn from sequences (nextval is never undone).\n',
    );
  });

  it('when a table is distributed: names what Citus may keep on the workers, and the after-commit steps', () => {
    const text = rehearseText([step(1, 'create_table'), step(2, 'distribute_table')], [step(3, 'validate_constraint')]);
    expect(text).not.toContain('nothing was kept');
    expect(text).toBe(
      'Rehearsed 2 steps on the cluster and rolled back: the transaction runs, and its changes are gone on the coordinator (the history schema too). Not rolled back: values drawn from sequences (nextval is never undone), and what Citus created on the workers for the tables it distributed, which it may keep after the rollback — the sequences behind serial, bigserial and identity columns (check with \\ds on a worker). (1 after-commit step cannot be rehearsed.)\n',
    );
  });
});
