// Subscriptions (CREATE SUBSCRIPTION name CONNECTION '${env:NAME}' PUBLICATION p, … WITH (…)) in
// sql: files. The connection string holds the publisher's password: it is never written into a
// manifest, only as a placeholder for an environment variable read at apply (as a user mapping's
// secret options, user-mapping.ts), and the catalog gives only its digest (superusers alone may
// read pg_subscription.subconninfo: introspect/subscription-secrets.ts). A subscription is
// compared by what PostgreSQL keeps of it: its publications, whether it is enabled, its slot and
// options; what only CREATE reads (connect, create_slot, copy_data) is not kept, so not compared.
// A change is made in place (ALTER SUBSCRIPTION): made again, it would drop its slot and copy its
// tables' rows once more. two_phase cannot be changed in place on PostgreSQL 15: a plan problem.
import { parseStatements, strings, type Node } from '../sql/pg-parse.js';
import { quoteIdent, quoteLiteral } from '../sql/quote.js';
import type { SqlObject } from '../model/types.js';
import type { Classified } from './alter-table.js';
import { envNamePart, placeholderName, SECRET_DIGEST } from './user-mapping.js';

/** What CREATE SUBSCRIPTION reads only when it runs: not kept, so not compared. */
const CREATE_ONLY: ReadonlySet<string> = new Set(['connect', 'create_slot', 'copy_data']);
/** What PostgreSQL 15 keeps, with its default (slot_name's is the subscription's name). */
const KEPT = ['enabled', 'slot_name', 'binary', 'streaming', 'synchronous_commit', 'two_phase', 'disable_on_error'];

/** How the catalog names a table a subscription receives, among its deps (catalog-subscriptions.ts). */
export const RECEIVES = 'receives relation ';

/** The catalog's connection string of a subscription it has not read yet (the second read puts its digest there). */
export const UNREAD_CONNECTION = '<connection>';

/** A subscription as PostgreSQL keeps it. */
export interface SubscriptionState {
  readonly name: string;
  readonly connection: string;
  readonly publications: readonly string[];
  readonly enabled: boolean;
  readonly slotName: string | null;
  readonly binary: boolean;
  readonly streaming: boolean;
  readonly synchronousCommit: string;
  readonly twoPhase: boolean;
  readonly disableOnError: boolean;
}

const argText = (d: Node): string | undefined => {
  const a = d.arg;
  if (a === undefined) return undefined;
  if (a.String) return String(a.String.sval);
  if (a.Integer) return String(a.Integer.ival ?? 0);
  if (a.Boolean) return a.Boolean.boolval ? 'true' : 'false';
  if (a.Float) return String(a.Float.fval);
  // A word (on, off, none, maybe) reads as a type name.
  if (a.TypeName) return strings(a.TypeName.names ?? []).join('.');
  return undefined;
};

/** A boolean option's value as PostgreSQL reads it (no value: true), or undefined when it is not one. */
function asBoolean(text: string | undefined): boolean | undefined {
  if (text === undefined) return true;
  const t = text.toLowerCase();
  if (['true', 'on', '1', 'yes'].includes(t)) return true;
  if (['false', 'off', '0', 'no'].includes(t)) return false;
  return undefined;
}

/** The options of a CreateSubscriptionStmt: name → value (no value: undefined). */
const optionsOf = (s: Node): Map<string, string | undefined> =>
  new Map((s.options ?? []).map((o: Node) => [String(o.DefElem.defname), argText(o.DefElem)]));

/** The subscription a CreateSubscriptionStmt declares, or why it is refused. */
export function subscriptionObject(s: Node): Classified | string {
  if (placeholderName(String(s.conninfo ?? '')) === undefined)
    return "a subscription's connection string may hold a password, never written into a manifest: write CONNECTION '${env:NAME}', and set the environment variable NAME to it where plan and apply run";
  for (const [name, value] of optionsOf(s)) {
    if (name === 'citus_use_authinfo')
      return "citus_use_authinfo makes Citus write its own credentials into the connection string, which the plan could then never compare with the manifest's: write them into the environment variable's connection string";
    if (!CREATE_ONLY.has(name) && !KEPT.includes(name)) return `CREATE SUBSCRIPTION has no option ${name} here`;
    if (['enabled', 'binary', 'streaming', 'two_phase', 'disable_on_error', ...CREATE_ONLY].includes(name))
      if (asBoolean(value) === undefined) return `option ${name} of a subscription takes true or false`;
  }
  return { kind: 'subscription', name: quoteIdent(String(s.subname)) };
}

/** A subscription's state from its CREATE SUBSCRIPTION statement (as declared, or as the catalog writes it). */
export function subscriptionState(create: string): SubscriptionState {
  const s = parseStatements(create)[0]?.stmt?.CreateSubscriptionStmt ?? {};
  const o = optionsOf(s);
  const bool = (name: string, byDefault: boolean): boolean =>
    (o.has(name) ? asBoolean(o.get(name)) : byDefault) ?? byDefault;
  // connect = false: not enabled, no slot made (and none dropped with it), unless said otherwise.
  const connect = bool('connect', true);
  const slot = o.has('slot_name') ? (o.get('slot_name') ?? '') : String(s.subname);
  return {
    name: quoteIdent(String(s.subname)),
    connection: String(s.conninfo ?? ''),
    publications: strings(s.publication ?? []),
    enabled: bool('enabled', connect),
    slotName: slot.toLowerCase() === 'none' ? null : slot,
    binary: bool('binary', false),
    streaming: bool('streaming', false),
    synchronousCommit: o.get('synchronous_commit') ?? 'off',
    twoPhase: bool('two_phase', false),
    disableOnError: bool('disable_on_error', false),
  };
}

/**
 * Whether PostgreSQL refuses the statement in a transaction block: CREATE SUBSCRIPTION that makes
 * its slot (on the publisher), DROP SUBSCRIPTION (of one with a slot: the catalog's DROP does not
 * say, so every one), SET / ADD / DROP PUBLICATION that refreshes, and REFRESH PUBLICATION.
 */
export function outsideTransaction(statement: string): boolean {
  const stmt = parseStatements(statement)[0]?.stmt ?? {};
  if (stmt.DropSubscriptionStmt) return true;
  if (stmt.CreateSubscriptionStmt) {
    const o = optionsOf(stmt.CreateSubscriptionStmt);
    const connect = o.has('connect') ? asBoolean(o.get('connect')) !== false : true;
    return connect && (o.has('create_slot') ? asBoolean(o.get('create_slot')) !== false : true);
  }
  const alter = stmt.AlterSubscriptionStmt;
  if (!alter) return false;
  if (alter.kind === 'ALTER_SUBSCRIPTION_REFRESH') return true;
  if (!String(alter.kind).endsWith('_PUBLICATION')) return false;
  const o = optionsOf(alter);
  return o.has('refresh') ? asBoolean(o.get('refresh')) !== false : true;
}

/** The environment variable a declared subscription's connection string names. */
export const connectionVariable = (create: readonly string[]): string | undefined =>
  placeholderName(subscriptionState(create[0] ?? '').connection);

/**
 * Whether the declared connection string is the actual one: by digest, never by value.
 * `undefined`: not compared (its variable unset, which the manifest's warnings say).
 */
function sameConnection(d: SqlObject, actual: string): boolean | undefined {
  const env = connectionVariable(d.create);
  const held = SECRET_DIGEST.exec(actual)?.[1];
  if (env === undefined || held === undefined) return false;
  const digest = d.secrets?.[env];
  if (digest === null) return undefined;
  return digest === held;
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/**
 * The statements that make the actual subscription the declared one, in an order PostgreSQL
 * accepts (disabled before its slot is set to NONE, enabled once it has one, its publications
 * refreshed only while enabled), [] when it is the same, or why it cannot be changed in place.
 */
export function subscriptionChange(d: SqlObject, a: SqlObject): string[] | { problem: string } {
  const want = subscriptionState(d.create[0] ?? '');
  const have = subscriptionState(a.create[0] ?? '');
  if (want.twoPhase !== have.twoPhase)
    return {
      problem: `two_phase is ${have.twoPhase ? 'on' : 'off'} and declared ${want.twoPhase ? 'on' : 'off'}: PostgreSQL 15 sets it only when a subscription is created, and making it again would drop its replication slot and copy its tables anew; drop it and create it by hand, or declare two_phase as it is`,
    };
  const name = want.name;
  const out: string[] = [];
  if (have.enabled && !want.enabled) out.push(`ALTER SUBSCRIPTION ${name} DISABLE`);
  const set: string[] = [];
  const option = (key: string, w: unknown, h: unknown, text: string): void => {
    if (w !== h) set.push(`${key} = ${text}`);
  };
  option('slot_name', want.slotName, have.slotName, want.slotName === null ? 'NONE' : quoteLiteral(want.slotName));
  option('binary', want.binary, have.binary, String(want.binary));
  option('streaming', want.streaming, have.streaming, want.streaming ? 'on' : 'off');
  option('synchronous_commit', want.synchronousCommit, have.synchronousCommit, quoteLiteral(want.synchronousCommit));
  option('disable_on_error', want.disableOnError, have.disableOnError, String(want.disableOnError));
  if (set.length > 0) out.push(`ALTER SUBSCRIPTION ${name} SET (${set.join(', ')})`);
  if (sameConnection(d, have.connection) === false)
    out.push(`ALTER SUBSCRIPTION ${name} CONNECTION ${quoteLiteral(want.connection)}`);
  if (!have.enabled && want.enabled) out.push(`ALTER SUBSCRIPTION ${name} ENABLE`);
  if (!sameSet(want.publications, have.publications))
    out.push(
      `ALTER SUBSCRIPTION ${name} SET PUBLICATION ${want.publications.map(quoteIdent).join(', ')}${want.enabled ? '' : ' WITH (refresh = false)'}`,
    );
  return out;
}

/**
 * A catalog definition as introspect writes it: its connection string as a placeholder named
 * after the subscription (`CM_SUB_ORDERS_CONNECTION`). Returns the text and that name.
 */
export function subscriptionWithPlaceholder(a: SqlObject): { text: string; names: string[] } {
  const name = ['CM_SUB', envNamePart(a.name), 'CONNECTION'].filter(Boolean).join('_');
  const text = (a.create[0] ?? '').replace(
    / CONNECTION '<secret sha256:[0-9a-f]{64}>'/,
    () => ` CONNECTION ${quoteLiteral(`\${env:${name}}`)}`,
  );
  return { text, names: [name] };
}
