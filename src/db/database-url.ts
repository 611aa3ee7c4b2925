// Reading a database URL strictly. A URL that does not parse is a usage error that shows the
// URL with its password masked; it never falls back to another host (pg-connection-string
// reads `postgres:/alice:pw@h/db` as database "alice:pw@h/db" on localhost).
import { CmError, EXIT } from '../errors.js';

/** The parts of a postgresql:// URL that a connection needs. */
export interface DatabaseUrl {
  readonly user?: string;
  readonly password?: string;
  /** Empty when the URL names no host (libpq's `postgresql:///db`: the default host). */
  readonly host: string;
  readonly port?: number;
  readonly database?: string;
  /** Query parameters other than the ones above (sslmode, options, …), decoded. */
  readonly params: Readonly<Record<string, string>>;
}

const MASK = '********';

/** The text with anything that may be a password replaced by asterisks; safe to print. */
export function maskUrl(text: string): string {
  let out = text.replace(/((?:^|[\s&?])password=)(?:'(?:[^'\\]|\\.)*'|[^\s&]*)/gi, `$1${MASK}`);
  const at = out.lastIndexOf('@');
  if (at >= 0) {
    // userinfo is what precedes the last '@', after a scheme such as `postgres:` or `postgres://`.
    const scheme = /^[a-z][a-z0-9+.-]*:\/+/i.exec(out)?.[0] ?? '';
    const userinfo = out.slice(scheme.length, at);
    const colon = userinfo.indexOf(':');
    if (colon >= 0) out = `${scheme}${userinfo.slice(0, colon + 1)}${MASK}${out.slice(at)}`;
  }
  return out;
}

function refuse(text: string, why: string): never {
  throw new CmError(
    `the URL does not parse: ${why}: ${maskUrl(text)} (expected postgresql://user[:password]@host[:port]/database)`,
    'invalid_url',
    EXIT.usage,
    { url: maskUrl(text) },
  );
}

function decode(text: string, part: string, value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return refuse(text, `the ${part} has a bad %-escape`);
  }
}

/** Parses a postgresql:// (or postgres://) URL; throws exit 64 "the URL does not parse: …". */
export function parseDatabaseUrl(text: string): DatabaseUrl {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (/^\s*\w+\s*=/.test(text))
      refuse(text, 'key=value connection strings are not supported; give a URL or use the PG* variables');
    refuse(text, 'it does not start with postgresql://');
  }
  if (scheme !== 'postgresql' && scheme !== 'postgres') {
    refuse(
      text,
      text.slice(scheme.length + 1).startsWith('//')
        ? `the scheme is ${JSON.stringify(`${scheme}:`)}, not postgresql:`
        : 'it does not start with postgresql://',
    );
  }
  if (!text.slice(scheme.length + 1).startsWith('//')) refuse(text, `"${scheme}:" must be followed by "//"`);
  const rest = text.slice(scheme.length + 3);
  const hashAt = rest.indexOf('#');
  if (hashAt >= 0) refuse(text, 'it has a "#" fragment (a "#" in a password must be written %23)');
  const queryAt = rest.indexOf('?');
  const beforeQuery = queryAt >= 0 ? rest.slice(0, queryAt) : rest;
  const slash = beforeQuery.indexOf('/', beforeQuery.lastIndexOf('@') + 1);
  const authority = slash >= 0 ? beforeQuery.slice(0, slash) : beforeQuery;
  const path = slash >= 0 ? beforeQuery.slice(slash + 1) : '';
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at) : undefined;
  const hostport = at >= 0 ? authority.slice(at + 1) : authority;
  if (userinfo !== undefined && userinfo.includes('/')) refuse(text, 'the user name holds a "/"');
  let user: string | undefined;
  let password: string | undefined;
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(':');
    user = decode(text, 'user name', colon >= 0 ? userinfo.slice(0, colon) : userinfo);
    if (colon >= 0) password = decode(text, 'password', userinfo.slice(colon + 1));
  }
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]*)(?::(.*))?$/.exec(hostport);
  if (!m)
    refuse(
      text,
      `the host ${JSON.stringify(hostport)} is not a host name, an IPv4 address or a bracketed IPv6 address`,
    );
  const host = decode(text, 'host', m[1]!.replace(/^\[(.*)\]$/, '$1'));
  if (/[\s,]/.test(host)) refuse(text, `the host ${JSON.stringify(host)} is not a host name`);
  let port: number | undefined;
  if (m[2] !== undefined) {
    if (!/^\d{1,5}$/.test(m[2]) || Number(m[2]) < 1 || Number(m[2]) > 65535)
      refuse(text, `the port ${JSON.stringify(m[2])} is not a number from 1 to 65535`);
    port = Number(m[2]);
  }
  if (path.includes('/')) refuse(text, `the database name ${JSON.stringify(path)} holds a "/" (write it %2F)`);
  const params: Record<string, string> = {};
  for (const pair of queryAt >= 0
    ? rest
        .slice(queryAt + 1)
        .split('&')
        .filter(Boolean)
    : []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) refuse(text, `the query parameter ${JSON.stringify(maskUrl(pair))} is not key=value`);
    params[decode(text, 'query', pair.slice(0, eq))] = decode(text, 'query', pair.slice(eq + 1));
  }
  const database = path ? decode(text, 'database name', path) : undefined;
  return {
    ...(user ? { user } : {}),
    ...(password !== undefined ? { password } : {}),
    host,
    ...(port !== undefined ? { port } : {}),
    ...(database ? { database } : {}),
    params,
  };
}
