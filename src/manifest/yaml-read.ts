// The manifest's reading, with the `yaml` package: its value, its syntax errors and the position
// of every problem (a path inside the manifest, ['tables', 'district', 'foreign_keys', 0], back
// to a line and column through the node ranges).
import {
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node as YamlNode,
  type Tags,
} from 'yaml';
import { floatValue, intValue } from './yaml-numbers.js';
import type { Locator } from './locate.js';
import { yamlProblems, type YamlProblem } from './yaml-errors.js';

/** The `yaml` package's reading of a manifest text. */
export interface YamlReading {
  readonly locator: Locator;
  /** Its syntax errors (none: the text is YAML). */
  readonly syntax: readonly YamlProblem[];
  /** Its value; throws on an alias without its anchor or an alias bomb. */
  value(): unknown;
}

/** Reads `text` with the `yaml` package, strictly (unique keys, YAML 1.2 core schema). */
export function readYaml(text: string): YamlReading {
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lines,
    uniqueKeys: true,
    prettyErrors: false,
    strict: true,
    customTags: exactNumbers,
  });
  return {
    locator: makeLocator(doc, lines),
    syntax: doc.errors.length > 0 ? yamlProblems(doc.errors, doc, text, lines) : [],
    value: () => doc.toJS({ maxAliasCount: 100 }),
  };
}

/** The core schema's integers and floats, read exactly (yaml-numbers.ts): a bigint past 2^53, a float's digits. */
function exactNumbers(tags: Tags): Tags {
  return tags.map((t) => {
    if (typeof t !== 'object' || !('resolve' in t) || !t.test) return t;
    if (t.tag === 'tag:yaml.org,2002:int') return { ...t, resolve: (s: string) => intValue(s) };
    if (t.tag === 'tag:yaml.org,2002:float') {
      const resolve = t.resolve.bind(t);
      return {
        ...t,
        resolve: (s: string, onError: (m: string) => void, opts: never) => {
          // (the plain form's answer is a Scalar keeping its fraction digits)
          const v: unknown = resolve(s, onError, opts);
          if (isScalar(v) && typeof v.value === 'number') v.value = floatValue(s, v.value);
          return typeof v === 'number' ? floatValue(s, v) : v;
        },
      };
    }
    return t;
  });
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
