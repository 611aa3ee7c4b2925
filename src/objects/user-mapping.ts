// User mappings (CREATE USER MAPPING FOR role SERVER s OPTIONS (…)) in sql: files. Their options
// hold passwords, which are never written into a manifest: a secret option's value is a
// placeholder, `'${env:NAME}'`, the environment variable NAME at apply. The catalog never gives
// a secret's value either, only a digest of it (introspect/catalog-foreign.ts): the plan compares
// the digest of the variable's value with it, or says that it could not (the variable unset).
// Which options are secret is by name: every option but the few that name a user or a file.
import { sha256Hex } from '../util/sha256.js';
import { parseStatements, type Node } from '../sql/pg-parse.js';
import { quoteIdent, quoteLiteral } from '../sql/quote.js';
import { serverRef } from '../model/object-ref.js';
import type { SqlObject } from '../model/types.js';
import type { Classified } from './alter-table.js';

/** Options whose values are not secrets: written and compared as they are. */
export const PLAIN_OPTIONS: ReadonlySet<string> = new Set([
  'user',
  'username',
  'password_required',
  'sslcert',
  'sslkey',
]);

/** `${env:NAME}`: a value the environment gives at apply. */
const PLACEHOLDER = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;
/** The catalog's form of a secret value: a digest of it (secretDigestSql). */
export const SECRET_DIGEST = /^<secret sha256:([0-9a-f]{64})>$/;
/** What the digest is of: this prefix and the value, as UTF-8 (the same in SQL and here). */
export const DIGEST_PREFIX = 'citus-migrate secret:';

/** SQL for the hex digest of a secret value `expr` (a text expression), as secretDigest computes it. */
export const secretDigestSql = (expr: string): string =>
  `pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(${quoteLiteral(DIGEST_PREFIX)}::pg_catalog.text OPERATOR(pg_catalog.||) ${expr}, 'UTF8'::pg_catalog.name)), 'hex'::pg_catalog.text)`;

/** A name as part of an environment variable's: `"Shop-Feed"` → `SHOP_FEED`. */
export const envNamePart = (s: string): string =>
  s
    .replace(/^"|"$/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/** The digest the catalog gives for a secret value. */
export const secretDigest = (value: string): string => sha256Hex(DIGEST_PREFIX + value);

/** The environment variable a value names (`${env:NAME}`), or undefined. */
export const placeholderName = (value: string): string | undefined => PLACEHOLDER.exec(value)?.[1];

/** The name of a user mapping as the catalog spells it: `for app server s`, `for PUBLIC server s`. */
export const userMappingName = (role: string | undefined, server: string): string =>
  `for ${role === undefined ? 'PUBLIC' : quoteIdent(role)} server ${quoteIdent(server)}`;

/** The user mapping a CreateUserMappingStmt declares, or why it is refused. */
export function userMappingObject(s: Node): Classified | string {
  if (s.if_not_exists)
    return 'CREATE USER MAPPING IF NOT EXISTS would leave a different mapping as it is: write CREATE USER MAPPING';
  const spec = s.user ?? {};
  if (spec.roletype !== 'ROLESPEC_CSTRING' && spec.roletype !== 'ROLESPEC_PUBLIC')
    return 'a user mapping names its role (or PUBLIC): CURRENT_USER, CURRENT_ROLE and SESSION_USER depend on who applies';
  for (const o of s.options ?? []) {
    const name = String(o.DefElem?.defname);
    const value = o.DefElem?.arg?.String?.sval;
    if (typeof value !== 'string') return `option ${name} needs a string value`;
    if (!PLAIN_OPTIONS.has(name) && placeholderName(value) === undefined)
      return `option ${name} of a user mapping may hold a secret, never written into a manifest: write ${name} '\${env:NAME}', and set the environment variable NAME where plan and apply run`;
  }
  return {
    kind: 'user mapping',
    name: userMappingName(spec.roletype === 'ROLESPEC_PUBLIC' ? undefined : spec.rolename, s.servername),
    needs: [serverRef(quoteIdent(s.servername))],
  };
}

/** The options of a CREATE USER MAPPING statement, in order: [name, value]. */
function optionsOf(create: readonly string[]): [string, string][] {
  const s = parseStatements(create[0] ?? '')[0]?.stmt?.CreateUserMappingStmt;
  return (s?.options ?? []).map((o: Node): [string, string] => [
    String(o.DefElem.defname),
    String(o.DefElem.arg?.String?.sval ?? ''),
  ]);
}

/** The environment variables a declared user mapping's options name. */
export function placeholders(create: readonly string[]): string[] {
  return optionsOf(create).flatMap(([, v]) => placeholderName(v) ?? []);
}

/**
 * Whether the actual mapping has the declared options. `d.secrets`: the digest of each variable
 * the declaration names (null when unset: that option is not compared, which the manifest's
 * warnings say).
 */
export function sameUserMapping(d: SqlObject, a: SqlObject): boolean {
  const want = new Map(optionsOf(d.create));
  const have = new Map(optionsOf(a.create));
  if (want.size !== have.size) return false;
  for (const [name, value] of want) {
    const actual = have.get(name);
    if (actual === undefined) return false;
    const held = SECRET_DIGEST.exec(actual)?.[1] ?? secretDigest(actual);
    const env = placeholderName(value);
    if (env === undefined) {
      if (held !== secretDigest(value)) return false;
      continue;
    }
    const digest = d.secrets?.[env];
    if (digest === undefined) return false; // (not resolved at all: differs)
    if (digest !== null && digest !== held) return false;
  }
  return true;
}

/** A catalog definition with its secrets shown as `'(secret)'`: for a plan's before/after lines. */
export const withoutDigests = (text: string): string => text.replace(/'<secret sha256:[0-9a-f]{64}>'/g, "'(secret)'");

/**
 * A catalog definition as introspect writes it: each secret as a placeholder, named after the
 * server, the role and the option (`CM_SRV_APP_PASSWORD`). Returns the text and those names.
 */
export function withPlaceholders(a: SqlObject): { text: string; names: string[] } {
  const m = /^for (.+) server (.+)$/.exec(a.name);
  const names: string[] = [];
  const text = (a.create[0] ?? '').replace(
    /("(?:[^"]|"")+"|\w+) '<secret sha256:[0-9a-f]{64}>'/g,
    (_all, option: string) => {
      const name = ['CM', envNamePart(m?.[2] ?? ''), envNamePart(m?.[1] ?? ''), envNamePart(option)]
        .filter(Boolean)
        .join('_');
      names.push(name);
      return `${option} ${quoteLiteral(`\${env:${name}}`)}`;
    },
  );
  return { text, names };
}

/** A `'${env:NAME}'` string literal in a statement. */
const PLACEHOLDER_LITERAL = /'\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}'/g;

/** The statement with each `'${env:NAME}'` literal as psql's variable `:'NAME'` (read with \getenv). */
export const withPsqlVariables = (sql: string): string => sql.replace(PLACEHOLDER_LITERAL, ":'$1'");

/** The statements with each `'${env:NAME}'` literal replaced by the variable's value, as a literal. */
export function substituteSecrets(sql: string, env: Readonly<Record<string, string | undefined>>): string {
  return sql.replace(PLACEHOLDER_LITERAL, (all, name: string) => {
    const value = env[name];
    return value === undefined ? all : quoteLiteral(value);
  });
}

/** The environment variables `sql` names in `'${env:NAME}'` literals. */
export function secretNames(sql: string): string[] {
  return [...sql.matchAll(PLACEHOLDER_LITERAL)].map((m) => m[1]!);
}
