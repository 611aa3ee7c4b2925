// The only module that turns names and values into SQL text. Everything else builds
// statements through these functions, so a hostile name can never change a statement's shape.
import { NON_UNRESERVED_KEYWORDS } from './keywords.js';

/** A schema-qualified object name, both parts exactly as stored in the catalog. */
export interface QualifiedName {
  readonly schema: string;
  readonly name: string;
}

const PLAIN_IDENTIFIER = /^[a-z_][a-z0-9_$]*$/;

function refuseNul(text: string, what: string): void {
  if (text.includes('\u0000')) throw new TypeError(`${what} contains a NUL character`);
}

/** Quotes an identifier when PostgreSQL would otherwise fold, reject or misread it. */
export function quoteIdent(name: string): string {
  refuseNul(name, 'identifier');
  if (name.length === 0) throw new TypeError('identifier is empty');
  if (PLAIN_IDENTIFIER.test(name) && !NON_UNRESERVED_KEYWORDS.has(name)) return name;
  return `"${name.replace(/"/g, '""')}"`;
}

/** Renders schema.name with each part quoted as needed. */
export function quoteQualified(q: QualifiedName): string {
  return `${quoteIdent(q.schema)}.${quoteIdent(q.name)}`;
}

/** Renders a string literal; uses the E'' form only when the text holds a backslash. */
export function quoteLiteral(value: string): string {
  refuseNul(value, 'literal');
  const body = value.replace(/'/g, "''");
  if (!value.includes('\\')) return `'${body}'`;
  return `E'${body.replace(/\\/g, '\\\\')}'`;
}

/** PostgreSQL's longest identifier, in bytes (NAMEDATALEN - 1). */
export const MAX_IDENTIFIER_BYTES = 63;

/** The longest start of `name` of at most `bytes` UTF-8 bytes, characters whole (as PostgreSQL truncates a name). */
export function clipName(name: string, bytes = MAX_IDENTIFIER_BYTES): string {
  let out = '';
  for (const ch of name) {
    if (Buffer.byteLength(out + ch) > bytes) break;
    out += ch;
  }
  return out;
}

/** A dollar-quote tag (`$base$`, `$base_$`…) that `text` does not hold, to quote it with. */
export function dollarTag(text: string, base: string): string {
  let tag = base;
  while (text.includes(`$${tag}$`)) tag += '_';
  return `$${tag}$`;
}

/** A literal holding a quoted qualified name, as regclass and colocate_with arguments expect. */
export function quoteRegclass(q: QualifiedName): string {
  return quoteLiteral(quoteQualified(q));
}

/** The built-in types the tool casts its literals to. */
export type BuiltinType =
  | 'text'
  | 'regclass'
  | 'regtype'
  | 'regprocedure'
  | 'regnamespace'
  | 'interval'
  | 'timestamptz'
  | 'name'
  | 'int4'
  | 'bool';

/**
 * A literal cast to a built-in type, written qualified (`'x'::pg_catalog.text`): the function it
 * is passed to resolves to exactly the overload meant, and no type of another schema on the
 * search_path can stand in for the built-in one.
 */
export function typedLiteral(value: string, type: BuiltinType): string {
  return `${quoteLiteral(value)}::pg_catalog.${type}`;
}

/** A table (or other relation) as a regclass argument: `'app.t'::pg_catalog.regclass`. */
export function regclassLiteral(q: QualifiedName): string {
  return typedLiteral(quoteQualified(q), 'regclass');
}

/** A table named as text, as Citus's colocate_with arguments take it: `'app.t'::pg_catalog.text`. */
export function tableNameLiteral(q: QualifiedName | 'none'): string {
  return typedLiteral(q === 'none' ? 'none' : quoteQualified(q), 'text');
}

/** A typed integer or boolean argument: `32::pg_catalog.int4`, `false::pg_catalog.bool`. */
export function typedValue(value: number | boolean): string {
  return typeof value === 'boolean' ? `${sqlBool(value)}::pg_catalog.bool` : `${sqlInt(value)}::pg_catalog.int4`;
}

/**
 * A call of a function of pg_catalog (PostgreSQL's or Citus's, which installs its functions
 * there): `SELECT pg_catalog.f(args)`, or `CALL pg_catalog.p(args)`. Qualified, so a function of
 * the same name in a schema on the search_path (planted by another role) is never called.
 */
export function catalogCall(fn: string, args: readonly string[], verb: 'SELECT' | 'CALL' = 'SELECT'): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(fn)) throw new TypeError(`not a plain function name: ${fn}`);
  return `${verb} pg_catalog.${fn}(${args.join(', ')})`;
}

/** Renders a JavaScript boolean as SQL. */
export function sqlBool(value: boolean): string {
  return value ? 'true' : 'false';
}

/** Renders a number (decimal text, as the catalog and the manifest hold it) as SQL, refusing anything that is not one. */
export function sqlNumber(value: string): string {
  if (!/^-?[0-9]+(\.[0-9]+)?(e-?[0-9]+)?$/i.test(value)) throw new TypeError(`not a number: ${JSON.stringify(value)}`);
  return value;
}

/** Renders an integer as SQL (a safe number, a bigint, or decimal text), refusing anything that is not one. */
export function sqlInt(value: number | bigint | string): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') {
    if (!/^-?[0-9]+$/.test(value)) throw new TypeError(`not an integer: ${JSON.stringify(value)}`);
    return BigInt(value).toString();
  }
  if (!Number.isSafeInteger(value)) throw new TypeError(`not an integer: ${value}`);
  return String(value);
}

/** Splits a manifest key such as `app.orders` or `"my.schema"."Order Lines"` into schema and name. */
export function parseQualifiedKey(key: string, defaultSchema: string): QualifiedName | { error: string } {
  const parts: string[] = [];
  let i = 0;
  while (i <= key.length) {
    if (key[i] === '"') {
      let j = i + 1;
      let part = '';
      for (;;) {
        if (j >= key.length) return { error: 'has an unterminated double quote' };
        if (key[j] === '"') {
          if (key[j + 1] === '"') {
            part += '"';
            j += 2;
            continue;
          }
          break;
        }
        part += key[j++];
      }
      parts.push(part);
      i = j + 1;
    } else {
      const dot = key.indexOf('.', i);
      const end = dot === -1 ? key.length : dot;
      const part = key.slice(i, end);
      if (part.includes('"'))
        return {
          error: 'has a double quote inside an unquoted part (quote the whole part as "..." and double inner quotes)',
        };
      parts.push(part);
      i = end;
    }
    if (i >= key.length) break;
    if (key[i] !== '.') return { error: 'has text after a quoted part (expected ".")' };
    i += 1;
    if (i === key.length) {
      parts.push('');
      break;
    }
  }
  if (parts.length > 2) return { error: 'has more than two dotted parts (expected name or schema.name)' };
  if (parts.some((p) => p.length === 0)) return { error: 'has an empty name part' };
  return parts.length === 2 ? { schema: parts[0]!, name: parts[1]! } : { schema: defaultSchema, name: parts[0]! };
}

/** Writes schema.name as a manifest key that parseQualifiedKey reads back as exactly that name. */
export function formatQualifiedKey(q: QualifiedName, defaultSchema: string): string {
  // An unquoted part ends at the first "." and may not hold a '"'; an empty or quote-led part
  // would read differently too. Anything else is written as is, so common keys stay plain.
  const part = (s: string): string =>
    s === '' || s.includes('.') || s.includes('"') ? `"${s.replace(/"/g, '""')}"` : s;
  return q.schema === defaultSchema ? part(q.name) : `${part(q.schema)}.${part(q.name)}`;
}

/** Why a name is not a valid PostgreSQL identifier, or undefined when it is. */
export function identifierProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.includes('\u0000')) return 'contains a NUL character';
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > 63) return `is ${bytes} bytes long; PostgreSQL identifiers are at most 63 bytes`;
  return undefined;
}
