// cli/early-read.ts: which invocations start plan's catalog read before the CLI loads, and the
// database they read. Anything it does not fully understand is left to commander (undefined).
import { describe, expect, it } from 'vitest';
import { planReads } from '../../src/cli/early-read.js';

describe('planReads', () => {
  it('reads a plain plan, with its --database in either spelling', () => {
    expect(planReads(['plan'])).toEqual({ database: undefined });
    expect(planReads(['plan', '--database', 'postgresql://h/db'])).toEqual({ database: 'postgresql://h/db' });
    expect(planReads(['plan', '--database=postgresql://h/db'])).toEqual({ database: 'postgresql://h/db' });
    expect(
      planReads([
        'plan',
        '-f',
        'x.yaml',
        '--format',
        'json',
        '-o',
        'plan.json',
        '--detailed-exitcode',
        '--include-unmanaged',
        '--online',
        '--timings',
        '--no-color',
        '--database',
        'host=h dbname=db',
      ]),
    ).toEqual({ database: 'host=h dbname=db' });
  });

  it('leaves everything else to commander', () => {
    for (const argv of [
      [],
      ['apply', '--database', 'postgresql://h/db'],
      ['--no-color', 'plan'],
      ['plan', '--offline'],
      ['plan', '--help'],
      ['plan', '-h'],
      ['plan', '--bogus'],
      ['plan', 'extra-argument'],
      ['plan', '--database'],
      ['plan', '--database', 'a', '--database', 'b'],
      ['plan', '-f=x.yaml'],
    ])
      expect(planReads(argv), argv.join(' ')).toBeUndefined();
  });
});
