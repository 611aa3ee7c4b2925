// libpq's key=value connection strings (`host=h port=5432 password = 'a b'`), read as libpq's
// conninfo_parse reads them, and what both connection-string forms share: the keyword list and
// masking by position. A secret is masked where the parser found it, never by searching for its
// text: a password `failed` must not turn "authentication failed" into "authentication ********".

/** [start, end) offsets into the connection string. */
export type Span = readonly [number, number];

/** Keywords libpq takes (PQconninfoOptions, PostgreSQL 17); any other is refused, as libpq does. */
export const KEYWORDS: ReadonlySet<string> = new Set(
  (
    'service user password passfile channel_binding connect_timeout dbname host hostaddr port client_encoding ' +
    'options application_name fallback_application_name keepalives keepalives_idle keepalives_interval ' +
    'keepalives_count tcp_user_timeout sslmode sslnegotiation sslcompression sslcert sslkey sslpassword ' +
    'sslcertmode sslrootcert sslcrl sslcrldir sslsni requirepeer ssl_min_protocol_version ' +
    'ssl_max_protocol_version gssencmode krbsrvname gsslib gssdelegation replication target_session_attrs ' +
    'load_balance_hosts require_auth min_protocol_version max_protocol_version'
  ).split(' '),
);

/** Keywords whose values are secrets: masked wherever they were written. */
export const SECRET_KEYWORDS: ReadonlySet<string> = new Set(['password', 'sslpassword']);

export const MASK = '********';

/** The text with each span replaced by asterisks (overlapping spans merged). */
export function maskSpans(text: string, spans: readonly Span[]): string {
  const sorted = [...spans].filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  let out = '';
  let at = 0;
  for (const [a, b] of sorted) {
    if (b <= at) continue;
    out += `${text.slice(at, Math.max(a, at))}${a >= at ? MASK : ''}`;
    at = b;
  }
  return out + text.slice(at);
}

/** True when [a, b) overlaps any of the spans. */
export const overlaps = (span: Span, spans: readonly Span[]): boolean =>
  spans.some(([a, b]) => span[0] < b && a < span[1]);

/** What a connection string says, keyword by keyword, and where its secrets were written. */
export interface RawConnInfo {
  readonly values: Record<string, string>;
  /** Where each keyword's value was written (the last one, when a keyword repeats). */
  readonly spans: Record<string, Span>;
  readonly secrets: Span[];
}

/** A refusal: why, and where else in the text a secret may be (beyond those found). */
export class ConnInfoRefusal extends Error {
  constructor(
    readonly why: string,
    readonly mask: readonly Span[],
  ) {
    super(why);
  }
}

const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);

/**
 * Parses `keyword = value …` as libpq does: spaces around `=`, a value in single quotes with
 * `\'` and `\\` escapes, an unquoted value ending at white space (`\` escapes there too).
 */
export function parseKeyValue(text: string): RawConnInfo {
  const raw: RawConnInfo = { values: {}, spans: {}, secrets: [] };
  // On a refusal, what was not read yet may hold a password: mask it all from there.
  const refuse = (why: string, from: number): never => {
    throw new ConnInfoRefusal(why, [...raw.secrets, [from, text.length]]);
  };
  let i = 0;
  for (;;) {
    while (isSpace(text[i])) i++;
    if (i >= text.length) break;
    const keyAt = i;
    while (i < text.length && text[i] !== '=' && !isSpace(text[i])) i++;
    const key = text.slice(keyAt, i);
    while (isSpace(text[i])) i++;
    // A word that is not a keyword may be the rest of a password written without quotes
    // (`password=a b`): it is named only when it is a keyword.
    if (text[i] !== '=')
      refuse(
        `missing "=" after ${KEYWORDS.has(key) ? JSON.stringify(key) : 'a word that is not a libpq keyword'}`,
        keyAt,
      );
    i++;
    const spaced = isSpace(text[i]);
    while (isSpace(text[i])) i++;
    const valueAt = i;
    // `password= host=h` is password "host=h" to libpq, and no host: refused, not guessed.
    const next = /^([^\s=']+)\s*=/.exec(text.slice(i))?.[1];
    if (spaced && next !== undefined && KEYWORDS.has(next))
      refuse(
        `${JSON.stringify(`${key}=`)} is followed by white space and ${next}=…, which libpq would take for its value: write ${key}='' for an empty value, or quote the value`,
        valueAt,
      );
    let value = '';
    if (text[i] === "'") {
      i++;
      for (;;) {
        if (i >= text.length) refuse(`unterminated quoted string for ${JSON.stringify(key)}`, valueAt);
        const c = text[i]!;
        if (c === "'") break;
        if (c === '\\' && i + 1 < text.length) i++;
        value += text[i++];
      }
      i++;
    } else {
      while (i < text.length && !isSpace(text[i])) {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        value += text[i++];
      }
    }
    const span: Span = [valueAt, i];
    // An unknown keyword may be a misspelt "password": its value is masked too.
    if (SECRET_KEYWORDS.has(key) || !KEYWORDS.has(key)) raw.secrets.push(span);
    raw.values[key] = value;
    raw.spans[key] = span;
  }
  return raw;
}
