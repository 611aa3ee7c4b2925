// Maps a path inside the manifest (['tables', 'district', 'foreign_keys', 0]) back to a
// line and column of the source file (yaml-read.ts finds it through the yaml package's node ranges).
export type Path = readonly (string | number)[];

/** Renders a path as tables.district.foreign_keys[0].references (keys needing it are quoted). */
export function formatPath(path: Path): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

export interface Locator {
  /** Position of the value at path (or of its key, with atKey), else of the deepest existing parent. */
  locate(path: Path, atKey?: boolean): { line: number; col: number } | undefined;
}
