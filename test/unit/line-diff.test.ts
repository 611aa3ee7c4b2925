// The changed lines a plan shows under a replaced routine body or a definition created again.
import { describe, expect, it } from 'vitest';
import { lineDiff } from '../../src/util/line-diff.js';

describe('lineDiff', () => {
  it('shows removed then added lines with one line of context, hunks apart', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].join('\n');
    const after = ['a', 'B', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].join('\n');
    expect(lineDiff(before, after)).toEqual(['  a', '- b', '+ B', '  c', '…', '  h', '+ i']);
  });

  it('is empty for equal texts, and cut at max lines', () => {
    expect(lineDiff('x\ny', 'x\ny')).toEqual([]);
    const many = lineDiff('', Array.from({ length: 100 }, (_, i) => `l${i}`).join('\n'), 10);
    expect(many).toHaveLength(11);
    expect(many[10]).toBe('… and 91 more lines');
  });

  it('says that texts too long to compare line by line differ', () => {
    const long = Array.from({ length: 2500 }, (_, i) => `l${i}`).join('\n');
    expect(lineDiff(long, `${long}\nx`)).toEqual(['(2500 lines → 2501 lines: too long to compare line by line)']);
  });
});
