// Reading a connection string strictly, as libpq reads it: a postgresql:// URL or key=value
// pairs. One that does not parse is a usage error that shows the text with its secrets masked
// where they were written; it never falls back to another host (pg-connection-string reads
// `postgres:/alice:pw@h/db` as database "alice:pw@h/db" on localhost).
import { CmError, EXIT } from '../errors.js';
import {
  ConnInfoRefusal,
  KEYWORDS,
  maskSpans,
  overlaps,
  parseKeyValue,
  SECRET_KEYWORDS,
  type RawConnInfo,
  type Span,
} from './conninfo.js';

/** The parts of a connection string that a connection needs. */
export interface DatabaseUrl {
  readonly user?: string;
  readonly password?: string;
  /** Empty when the string names no host (libpq's `postgresql:///db`: the default host). */
  readonly host: string;
  readonly port?: number;
  readonly database?: string;
  /** Keywords other than the ones above (sslmode, options, passfile, …), decoded. */
  readonly params: Readonly<Record<string, string>>;
}

/** A parsed connection string and the same text with its secrets masked, safe to print. */
export interface ParsedConnection {
  readonly conn: DatabaseUrl;
  readonly masked: string;
}

const EXPECTED = '(expected postgresql://user[:password]@host[:port]/database or host=… port=… dbname=… user=…)';

/**
 * Where a URL's password may be when the text is malformed and its structure unknown: from the
 * first ":" after the scheme to the last "@". Used for refusals only, so a password holding
 * "/", "?" or "#" is masked in the echo even where the parser could not place it.
 */
function suspectSpans(text: string): Span[] {
  const start = /^[a-z][a-z0-9+.-]*:\/+/i.exec(text)?.[0].length ?? 0;
  const at = text.lastIndexOf('@');
  const colon = text.indexOf(':', start);
  return at > start && colon >= 0 && colon < at ? [[colon + 1, at]] : [];
}

function refusal(text: string, why: string, mask: readonly Span[]): CmError {
  const masked = maskSpans(text, mask);
  return new CmError(`the URL does not parse: ${why}: ${masked} ${EXPECTED}`, 'invalid_url', EXIT.usage, {
    url: masked,
  });
}

function decode(value: string, what: string, span: Span, mask: readonly Span[]): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ConnInfoRefusal(`the ${what} has a bad %-escape`, [...mask, span]);
  }
}

/** Splits a postgresql:// URL into libpq keywords, as libpq's conninfo_uri_parse_options does. */
function parseUri(text: string, prefix: number): RawConnInfo {
  const raw: RawConnInfo = { values: {}, spans: {}, secrets: [] };
  const refuse = (why: string): never => {
    throw new ConnInfoRefusal(why, raw.secrets);
  };
  const indexOr = (c: string, from: number, end = text.length): number => {
    const k = text.indexOf(c, from);
    return k < 0 || k > end ? end : k;
  };
  const slash = indexOr('/', prefix);
  // userinfo: up to the first "@" before the first "/", as libpq reads it (so a password may hold
  // ":", "?" or "#" unencoded, never "@": libpq would take what follows the first one for the host).
  const firstAt = indexOr('@', prefix, slash);
  const userEnd = firstAt < slash ? firstAt : -1;
  // Secrets first: every later refusal masks them.
  const queryAt = indexOr('?', userEnd >= 0 ? userEnd : prefix);
  const pairs: { key: string; keySpan: Span; span: Span }[] = [];
  for (let p = queryAt + 1; p < text.length;) {
    const end = indexOr('&', p);
    const eq = indexOr('=', p, end);
    let key: string;
    try {
      key = decodeURIComponent(text.slice(p, eq));
    } catch {
      key = '';
    }
    const span: Span = [Math.min(eq + 1, end), end];
    if (p < end) pairs.push({ key, keySpan: [p, eq], span });
    if (SECRET_KEYWORDS.has(key) || (!KEYWORDS.has(key) && key !== 'ssl')) raw.secrets.push(span);
    p = end + 1;
  }
  const colon = userEnd >= 0 ? indexOr(':', prefix, userEnd) : -1;
  if (userEnd >= 0 && colon < userEnd) raw.secrets.push([colon + 1, userEnd]);
  const set = (key: string, span: Span, what: string): void => {
    raw.values[key] = decode(text.slice(...span), what, span, raw.secrets);
    raw.spans[key] = span;
  };
  if (userEnd >= 0) {
    // libpq reads `postgresql://h?password=x@g` as user "h?password=x" on host g: a query
    // written before the "@" would be a user name, printed in every message.
    if (text.slice(prefix, colon).includes('?')) {
      raw.secrets.push([prefix, userEnd]);
      refuse('a "?" before the "@" (libpq reads all of it as the user name: write "?" in a user name as %3F)');
    }
    if (colon > prefix) set('user', [prefix, colon], 'user name');
    // An empty password is none, as libpq reads it (PGPASSWORD or the password file then apply).
    if (colon + 1 < userEnd) set('password', [colon + 1, userEnd], 'password');
  }
  const hostAt = userEnd >= 0 ? userEnd + 1 : prefix;
  const hostEnd = Math.min(indexOr('/', hostAt), queryAt);
  const hostport = text.slice(hostAt, hostEnd);
  if (userEnd >= 0 && hostport.includes('@'))
    refuse(
      'an "@" in the user name or password (libpq ends them at the first "@" and reads the rest as the host: write it %40)',
    );
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]*)(?::(.*))?$/.exec(hostport);
  if (!m) {
    const shown = overlaps([hostAt, hostEnd], [...raw.secrets, ...suspectSpans(text)])
      ? ''
      : ` ${JSON.stringify(hostport)}`;
    return refuse(`the host${shown} is not a host name, an IPv4 address or a bracketed IPv6 address`);
  }
  const hostText = m[1]!.replace(/^\[(.*)\]$/, '$1');
  const bracket = m[1]!.startsWith('[') ? 1 : 0;
  if (hostText) set('host', [hostAt + bracket, hostAt + bracket + hostText.length], 'host');
  if (m[2] !== undefined) set('port', [hostAt + m[1]!.length + 1, hostEnd], 'port');
  if (text[hostEnd] === '/') {
    const path: Span = [hostEnd + 1, queryAt];
    const dbText = text.slice(...path);
    // libpq would read `u:pa/ss@h/db` as host u, port pa, database ss@h/db: never print that.
    if (dbText.includes('@')) refuse('an "@" after the host (write "/" in a password %2F)');
    if (dbText.includes('/')) refuse(`the database name ${JSON.stringify(dbText)} holds a "/" (write it %2F)`);
    if (dbText) set('dbname', path, 'database name');
  }
  for (const { key, keySpan, span } of pairs) {
    if (span[0] <= keySpan[1])
      refuse(
        `${KEYWORDS.has(key) ? `the query parameter ${JSON.stringify(key)}` : 'a query parameter'} is not key=value`,
      );
    // libpq's URI-only alias: ssl=true is sslmode=require.
    if (key === 'ssl' && text.slice(...span) === 'true') raw.values.sslmode = 'require';
    else set(key, span, 'query');
  }
  return raw;
}

/** Turns keyword values into the parts a connection needs; refuses what cannot be honoured. */
function finish(text: string, raw: RawConnInfo): DatabaseUrl {
  const { values, spans } = raw;
  const shown = (key: string): string =>
    spans[key] && !overlaps(spans[key], [...raw.secrets, ...suspectSpans(text)])
      ? ` ${JSON.stringify(values[key])}`
      : '';
  for (const key of Object.keys(values))
    if (!KEYWORDS.has(key)) throw new ConnInfoRefusal(`${JSON.stringify(key)} is not a libpq keyword`, []);
  for (const key of ['service', 'hostaddr'])
    if (values[key] !== undefined) throw new ConnInfoRefusal(`${key}= is not supported: name the host`, []);
  const { user, password, host = '', port: portText, dbname, ...params } = values;
  if (/[\s,]/.test(host))
    throw new ConnInfoRefusal(`the host${shown('host')} is not a host name (one host only)`, suspectSpans(text));
  let port: number | undefined;
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535)
      throw new ConnInfoRefusal(`the port${shown('port')} is not a number from 1 to 65535`, suspectSpans(text));
    port = Number(portText);
  }
  return {
    ...(user ? { user } : {}),
    ...(password !== undefined ? { password } : {}),
    host,
    ...(port !== undefined ? { port } : {}),
    ...(dbname ? { database: dbname } : {}),
    params,
  };
}

/** Parses a postgresql:// URL or key=value string; throws exit 64 "the URL does not parse: …". */
export function parseConnection(text: string): ParsedConnection {
  let raw: RawConnInfo | undefined;
  try {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
    if (scheme === undefined) {
      if (!/^\s*[\w.-]+\s*=/.test(text)) throw new ConnInfoRefusal('it does not start with postgresql://', []);
      raw = parseKeyValue(text);
    } else {
      if (scheme !== 'postgresql' && scheme !== 'postgres') {
        const slashes = text.slice(scheme.length + 1).startsWith('//');
        const why = slashes
          ? `the scheme is ${JSON.stringify(`${scheme}:`)}, not postgresql:`
          : 'it does not start with postgresql://';
        throw new ConnInfoRefusal(why, []);
      }
      if (!text.slice(scheme.length + 1).startsWith('//'))
        throw new ConnInfoRefusal(`"${scheme}:" must be followed by "//"`, []);
      raw = parseUri(text, scheme.length + 3);
    }
    return { conn: finish(text, raw), masked: maskSpans(text, raw.secrets) };
  } catch (e) {
    if (!(e instanceof ConnInfoRefusal)) throw e;
    throw refusal(text, e.why, [...e.mask, ...(raw?.secrets ?? []), ...suspectSpans(text)]);
  }
}

/** Parses a connection string (see parseConnection) and returns its parts. */
export function parseDatabaseUrl(text: string): DatabaseUrl {
  return parseConnection(text).conn;
}
