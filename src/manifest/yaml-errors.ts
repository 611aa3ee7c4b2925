// The yaml package's syntax errors, said in plain words at the offending token. Its own messages
// ("Nested mappings are not allowed in compact mappings") describe the parser's view, and its
// indentation errors point at column 1 of the line rather than at the misplaced key.
import { isPair, isScalar, visit, type Document, type LineCounter, type YAMLError } from 'yaml';

export interface YamlProblem {
  readonly message: string;
  readonly line: number;
  readonly col: number;
}

/** The key whose node starts at `offset` (a duplicate key is reported there). */
function keyAt(doc: Document, offset: number): string | undefined {
  let found: string | undefined;
  visit(doc, {
    Pair(_, pair) {
      if (isPair(pair) && isScalar(pair.key) && pair.key.range?.[0] === offset) {
        found = String(pair.key.value);
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/** Offset of the first character on offset's line that is not a space (where a misindented key starts). */
function firstNonSpace(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && text[i] === ' ') i++;
  return i;
}

function plainMessage(e: YAMLError, doc: Document): string {
  const original = e.message.split('\n')[0]!;
  switch (e.code) {
    case 'BAD_INDENT':
      if (original.startsWith('Flow map')) return 'a { … } mapping that starts above is not closed: add the missing }';
      if (original.startsWith('Flow sequence'))
        return 'a [ … ] list that starts above is not closed: add the missing ]';
      return 'this line is indented differently from the keys above it in the same mapping: give it the same number of spaces';
    case 'BLOCK_AS_IMPLICIT_KEY':
      if (original.startsWith('Nested mappings'))
        return 'a nested mapping cannot start on the same line as its key: put it on the lines below, indented, or write it as { key: value }';
      return 'a "- " list item where a key was expected: indent it like the list items above it';
    case 'TAB_AS_INDENT':
      return 'a tab is used for indentation; YAML allows only spaces';
    case 'MULTILINE_IMPLICIT_KEY':
      return 'this key runs over more than one line: a ":" is missing after it, or needs a space after it (key: value)';
    case 'MISSING_CHAR':
      if (original.startsWith('Missing closing'))
        return `a quoted string that starts above is not closed: add the closing ${original.includes("'") ? "'" : '"'}`;
      if (original.startsWith('Implicit map keys')) return 'a key without a value: expected "key: value"';
      return original;
    case 'DUPLICATE_KEY': {
      const key = keyAt(doc, e.pos[0]);
      return `${key === undefined ? 'a key' : `key ${JSON.stringify(key)}`} appears twice in the same mapping; each key may appear once`;
    }
    case 'MULTIPLE_DOCS':
      return 'the file holds more than one YAML document (a second "---"); a manifest is one document';
    case 'BLOCK_IN_FLOW':
      return 'a "- " list or "key:" block inside { … } or [ … ]: inside brackets write items as a, b or key: value, separated by commas';
    case 'BAD_SCALAR_START':
      return `${original}: quote the value`;
    default:
      // The yaml package reads nested collections by recursion: past a few thousand levels it stops there.
      if (/maximum call stack/i.test(original))
        return 'mappings or lists nest too deeply here to be read (a manifest needs a few levels)';
      return original;
  }
}

/** YAML syntax errors in plain words at their tokens; only the first of each line (the rest follow from it). */
export function yamlProblems(
  errors: readonly YAMLError[],
  doc: Document,
  text: string,
  lines: LineCounter,
): YamlProblem[] {
  const out: YamlProblem[] = [];
  for (const e of errors) {
    const p = yamlProblem(e, doc, text, lines);
    if (!out.some((o) => o.line === p.line)) out.push(p);
  }
  return out;
}

function yamlProblem(e: YAMLError, doc: Document, text: string, lines: LineCounter): YamlProblem {
  const indentation = (e.code === 'BAD_INDENT' && !e.message.startsWith('Flow ')) || e.code === 'BLOCK_AS_IMPLICIT_KEY';
  const at = indentation ? firstNonSpace(text, e.pos[0]) : e.pos[0];
  const pos = lines.linePos(at);
  return { message: plainMessage(e, doc), line: pos.line, col: pos.col };
}
