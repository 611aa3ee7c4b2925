// The manifest's fast reading: js-yaml, about five times faster than the `yaml` package on a
// cold start (70 KB: 23 ms against 127 ms), under a schema that resolves scalars exactly as the
// `yaml` package's YAML 1.2 core schema does (load.ts's reading). The `yaml` package stays the
// reference: it reads every text this one declines (any construct where the two could differ)
// or cannot read (a syntax error, a duplicate key: the error and its position are `yaml`'s), and
// it alone locates problems. test/unit/yaml-fast.test.ts holds the two equal on every manifest
// the repository and the corpora have.
import jsYaml from 'js-yaml';
import { floatValue, intValue } from './yaml-numbers.js';

const { Type } = jsYaml;

// YAML 1.2 core scalars, with the patterns and values of the `yaml` package's core schema.
const nullType = new Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (s: string) => /^(?:~|[Nn]ull|NULL)?$/.test(s),
  construct: () => null,
});
const boolType = new Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (s: string) => /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s),
  construct: (s: string) => s[0] === 't' || s[0] === 'T',
});
const INT = /^[-+]?[0-9]+$/;
const OCT = /^0o[0-7]+$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const intType = new Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (s: string) => INT.test(s) || OCT.test(s) || HEX.test(s),
  construct: intValue, // exactly: a bigint beyond 2^53 (yaml-numbers.ts)
});
const SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
const floatType = new Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (s: string) => SPECIAL.test(s) || EXP.test(s) || FLOAT.test(s),
  construct: (s: string) =>
    SPECIAL.test(s)
      ? s.slice(-3).toLowerCase() === 'nan'
        ? NaN
        : s[0] === '-'
          ? Number.NEGATIVE_INFINITY
          : Number.POSITIVE_INFINITY
      : floatValue(s, parseFloat(s)), // an InexactNumber when the number is not the decimal written
});
const CORE = jsYaml.FAILSAFE_SCHEMA.extend({ implicit: [nullType, boolType, intType, floatType] });

/**
 * Where the two readers could differ, so the text is left to `yaml`: a tab (indentation rules),
 * an anchor, alias or tag (`&a`, `*a`, `!t`: aliases expand differently, tags resolve
 * differently), a complex key (`? `), a directive (`%YAML`), a merge key (`<<`), or a null key
 * (`null:`, `~:`, `: v`; `yaml` reads it as "", js-yaml as "null"). Each is matched wherever it
 * could start a token, inside quoted strings too: a text declined in error only reads slower.
 */
const DECLINED = [
  /\t/,
  /(?:^|[\s,[\]{}])[&*!](?=\S)/m,
  /(?:^|[\s,[{])\?(?:\s|$)/m,
  /^%/m,
  /<</,
  /(?:^|[\s,[{-])(?:~|null|Null|NULL)?\s*:(?:\s|$)/m,
];

/** The manifest text's value, or undefined when it is left to the `yaml` package (see DECLINED). */
export function readYamlFast(text: string): { value: unknown } | undefined {
  if (DECLINED.some((re) => re.test(text))) return undefined;
  try {
    // An empty text: null, as `yaml` reads it (js-yaml: undefined).
    return { value: jsYaml.load(text, { schema: CORE }) ?? null };
  } catch {
    return undefined; // a syntax error or duplicate key: `yaml` reports it, with its position
  }
}
