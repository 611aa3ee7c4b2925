// Whether a stream gets ANSI colours, decided in one place; the palette formatters take. Colour
// only on a terminal: never when piped or written to a file, never in JSON, SQL or markdown.
// Formatters escape names first (visible.ts) and colour the escaped text: no colour code ever
// comes from user text.

/** What decides: the stream, the environment and --no-color. */
export interface ColorInputs {
  readonly isTTY: boolean | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly noColorFlag?: boolean;
}

/**
 * --no-color, then NO_COLOR (any non-empty value: no-color.org), then FORCE_COLOR ('0' or
 * 'false' off, any other value on, as Node and chalk read it), then a terminal that is not dumb.
 */
export function useColor({ isTTY, env, noColorFlag }: ColorInputs): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  return Boolean(isTTY) && env.TERM !== 'dumb';
}

/** How text is coloured: identity functions when colour is off. */
export interface Palette {
  readonly on: boolean;
  readonly red: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly green: (s: string) => string;
  readonly cyan: (s: string) => string;
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
}

const sgr =
  (open: number, close: number) =>
  (s: string): string =>
    s === '' ? s : `\x1b[${open}m${s}\x1b[${close}m`;
const same = (s: string): string => s;

export const NO_COLOR: Palette = { on: false, red: same, yellow: same, green: same, cyan: same, bold: same, dim: same };
export const COLOR: Palette = {
  on: true,
  red: sgr(31, 39),
  yellow: sgr(33, 39),
  green: sgr(32, 39),
  cyan: sgr(36, 39),
  bold: sgr(1, 22),
  dim: sgr(2, 22),
};

/** The palette for `color`. */
export function palette(color: boolean | undefined): Palette {
  return color ? COLOR : NO_COLOR;
}
