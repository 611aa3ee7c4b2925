// Inputs the loader got wrong (the security issue's loader part), without a database: the
// library's options, names that are Object.prototype's members, integers past 2^53, deep nesting.
import { describe, expect, it } from 'vitest';
import { apply, bench, CmError, history, historyEntry, introspect, plan } from '../../src/index.js';

const URL = 'postgresql://nobody@127.0.0.1:1/none';

/** The bad_options error a call rejects with, as [message, meta.problems]. */
async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(CmError);
  expect((e as CmError).code).toBe('bad_options');
  expect((e as CmError).exitCode).toBe(64);
  return (e as CmError).message;
}

describe("the library's options are checked before anything runs", () => {
  it('names the function, the option path and what is wrong', async () => {
    expect(await refusal(apply(URL, 'm.yaml', { allowHazards: ['drops_data', 'drop_data'] } as never))).toBe(
      'apply(): options.allowHazards[1]: Invalid option: expected one of "copies_data"|"rewrites_table"|"drops_data"|"breaks_cached_plans"|"non_transactional"|"security_definer"|"creates_extension"|"public_privileges"|"weakens_security"',
    );
    expect(await refusal(apply(URL, 'm.yaml', { allowHazards: 'drops_data' } as never))).toBe(
      'apply(): options.allowHazards: expected an array or a Set of hazards',
    );
    expect(await refusal(apply(URL, 'm.yaml', { lockTimeoutMs: '5s', rehaerse: true } as never))).toBe(
      'apply(): options.lockTimeoutMs: Invalid input: expected number, received string; options: unknown option "rehaerse"',
    );
    expect(await refusal(apply(URL, 'm.yaml', {}, { stepStarted: true } as never))).toBe(
      'apply(): events.stepStarted: expected a function',
    );
    expect(await refusal(plan(URL, 'm.yaml', { online: 'yes' } as never))).toBe(
      'plan(): options.online: Invalid input: expected boolean, received string',
    );
    expect(await refusal(plan(42 as never, 'm.yaml'))).toBe(
      'plan(): target: expected a database URL or a ConnectionTarget (connectionTarget() builds one)',
    );
    expect(await refusal(bench(URL, 'm.yaml', { clients: 0 }))).toBe(
      'bench(): options.clients: Too small: expected number to be >=1',
    );
    expect(await refusal(introspect(URL, { file: true } as never))).toBe(
      'introspect(): options: unknown option "file"',
    );
    expect(await refusal(history(URL, 0))).toBe('history(): limit: Too small: expected number to be >=1');
    expect(await refusal(historyEntry(URL, 1.5))).toBe(
      'historyEntry(): id: Invalid input: expected int, received number',
    );
  });
});
