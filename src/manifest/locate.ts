// Maps a path inside the manifest (['tables', 'district', 'foreign_keys', 0]) back to a
// line and column of the source file, through the yaml package's node ranges.
import { isMap, isPair, isScalar, isSeq, LineCounter, type Document, type Node as YamlNode } from 'yaml';

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

/** A locator over a parsed YAML/JSON document. */
export function makeLocator(doc: Document, lines: LineCounter): Locator {
  return {
    locate(path, atKey = false) {
      let node: unknown = doc.contents;
      let best: { range?: [number, number, number] | null } | undefined = node as YamlNode;
      for (let i = 0; i < path.length; i++) {
        const seg = path[i]!;
        const last = i === path.length - 1;
        if (isMap(node)) {
          const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
          if (!pair) break;
          if (last && atKey) {
            best = pair.key as YamlNode;
            break;
          }
          node = pair.value;
          if (node) best = node as YamlNode;
          else {
            best = pair.key as YamlNode;
            break;
          }
        } else if (isSeq(node) && typeof seg === 'number') {
          node = node.items[seg];
          if (!node) break;
          best = node as YamlNode;
        } else break;
      }
      const offset = best?.range?.[0];
      if (offset === undefined) return undefined;
      const pos = lines.linePos(offset);
      return { line: pos.line, col: pos.col };
    },
  };
}
