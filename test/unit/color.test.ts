// One decision for ANSI colours: --no-color, NO_COLOR, FORCE_COLOR, then a terminal.
import { describe, expect, it } from 'vitest';
import { COLOR, NO_COLOR, palette, useColor } from '../../src/util/color.js';

describe('useColor', () => {
  it('colours a terminal only', () => {
    expect(useColor({ isTTY: true, env: {} })).toBe(true);
    expect(useColor({ isTTY: false, env: {} })).toBe(false);
    expect(useColor({ isTTY: undefined, env: {} })).toBe(false);
    expect(useColor({ isTTY: true, env: { TERM: 'dumb' } })).toBe(false);
  });

  it('NO_COLOR with any non-empty value turns it off; empty does not', () => {
    expect(useColor({ isTTY: true, env: { NO_COLOR: '1' } })).toBe(false);
    expect(useColor({ isTTY: true, env: { NO_COLOR: '0' } })).toBe(false);
    expect(useColor({ isTTY: true, env: { NO_COLOR: '' } })).toBe(true);
    expect(useColor({ isTTY: true, env: { NO_COLOR: 'x', FORCE_COLOR: '1' } })).toBe(false);
  });

  it('--no-color wins over everything', () => {
    expect(useColor({ isTTY: true, env: { FORCE_COLOR: '1' }, noColorFlag: true })).toBe(false);
  });

  it('FORCE_COLOR turns it on when piped; 0 or false turn it off', () => {
    expect(useColor({ isTTY: false, env: { FORCE_COLOR: '1' } })).toBe(true);
    expect(useColor({ isTTY: false, env: { FORCE_COLOR: 'true' } })).toBe(true);
    expect(useColor({ isTTY: true, env: { FORCE_COLOR: '0' } })).toBe(false);
    expect(useColor({ isTTY: true, env: { FORCE_COLOR: 'false' } })).toBe(false);
    expect(useColor({ isTTY: true, env: { FORCE_COLOR: '' } })).toBe(true);
  });

  it('the palette is identity without colour, SGR codes with it', () => {
    expect(palette(false)).toBe(NO_COLOR);
    expect(palette(undefined).red('x')).toBe('x');
    expect(palette(true)).toBe(COLOR);
    expect(COLOR.red('x')).toBe('\x1b[31mx\x1b[39m');
    expect(COLOR.bold('')).toBe('');
  });
});
