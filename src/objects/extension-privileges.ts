// GRANT / REVOKE on what an extension made (its tables, columns, sequences, functions, types, schemas,
// foreign data wrappers) and on procedural languages, compared as pg_dump dumps them: with what the
// extension's script (or initdb) left them, pg_init_privs, not PostgreSQL's defaults. A `GRANT EXECUTE
// ON FUNCTION pg_stat_statements_reset() TO monitor` is one object, `privileges function … to monitor`;
// a REVOKE SELECT ON pg_stat_statements FROM PUBLIC (its script granted it) is `… revoked from PUBLIC`.
// The catalog gives each such object's ACL now and as its script left it; the files' statements (one
// privilege at a time, in order: PrivilegeSet's ops) are applied again to the latter when the plan
// knows the cluster, since a REVOKE's effect depends on what the script granted. Pure.
import type { ClusterModel, SqlObject } from '../model/types.js';
import type { AclItem, ExtensionTarget, PrivilegeOp, Target } from '../model/privilege-types.js';
import { quoteIdent } from '../sql/quote.js';
import { dict } from '../util/dict.js';
import { relationRef, typeRef } from '../model/object-ref.js';
import { ALL, ORDER, byOrder, clauses, publicDefault } from './privileges.js';

const DEFAULTS: ReadonlySet<string> = new Set(['TABLES', 'SEQUENCES', 'FUNCTIONS', 'TYPES', 'SCHEMAS']);
/** Privileges of one grantee: privilege → whether it may be granted on. */
type Held = Map<string, boolean>;
/** An ACL: grantee → what it holds. */
type Acl = Map<string, Held>;
interface Acls {
  readonly object: Acl;
  readonly columns: Map<string, Acl>;
}

/** How the ids of a target's privileges objects start ("privileges function app.f(integer) "). */
export const privilegesIdPrefix = (t: Target): string => `privileges ${clauses(t).name} `;
/** The end of the name of the files' statements on what an extension the plan creates will make, run as written. */
export const AS_WRITTEN = ' as the files grant and revoke it';

/** A target's key in `ClusterModel.extensionTargets`. */
export const extensionTargetKey = (t: { type: string; name: string }): string => `${t.type} ${t.name}`;

function fromItems(items: readonly AclItem[]): Acl {
  const acl: Acl = new Map();
  for (const [grantee, priv, grantable] of items) {
    const held = acl.get(grantee) ?? new Map<string, boolean>();
    held.set(priv, grantable || (held.get(priv) ?? false));
    acl.set(grantee, held);
  }
  return acl;
}

/** The ACL an object has while none is set: its owner holds everything, PUBLIC its defaults (acldefault). */
function aclDefault(t: Target, owner: string): Acl {
  const acl: Acl = new Map([[owner, new Map(ALL[t.type].map((p) => [p, false]))]]);
  const pub = publicDefault(t);
  if (pub.length > 0) acl.set('PUBLIC', new Map(pub.map((p) => [p, false])));
  return acl;
}

const acls = (x: ExtensionTarget, side: 'now' | 'init'): Acls => ({
  object: x[side] ? fromItems(x[side]) : aclDefault(x, x.owner),
  columns: new Map(Object.entries(x.columns ?? {}).map(([c, v]) => [c, fromItems(v[side])])),
});

const copy = (a: Acl): Acl => new Map([...a].map(([g, h]) => [g, new Map(h)]));

/** `base` with the files' statements applied in order, as PostgreSQL would. */
function replay(base: Acls, ops: readonly PrivilegeOp[]): Acls {
  const object = copy(base.object);
  const columns = new Map([...base.columns].map(([c, a]) => [c, copy(a)]));
  for (const op of ops) {
    const acl = op.column === undefined ? object : (columns.get(op.column) ?? new Map<string, Held>());
    if (op.column !== undefined) columns.set(op.column, acl);
    const held = acl.get(op.grantee) ?? new Map<string, boolean>();
    acl.set(op.grantee, held);
    if (op.grant) held.set(op.priv, op.option || (held.get(op.priv) ?? false));
    else if (op.option) {
      if (held.has(op.priv)) held.set(op.priv, false);
    } else {
      held.delete(op.priv);
      // REVOKE on a table takes the same privilege from its columns.
      if (op.column === undefined) for (const c of columns.values()) c.get(op.grantee)?.delete(op.priv);
    }
  }
  return { object, columns };
}

interface Change {
  readonly grant: string[];
  readonly grantOption: string[];
  readonly revoke: string[];
  readonly revokeOption: string[];
  /** What `revoke` took that could be granted on (given back WITH GRANT OPTION). */
  readonly revokeHadOption: string[];
  /** What `grantOption` gave that was held already (its undoing keeps the privilege). */
  readonly upgraded: string[];
}

function change(before: Held | undefined, after: Held | undefined): Change {
  const b = before ?? new Map<string, boolean>();
  const a = after ?? new Map<string, boolean>();
  const c: Change = { grant: [], grantOption: [], revoke: [], revokeOption: [], revokeHadOption: [], upgraded: [] };
  for (const [p, opt] of a) {
    if (!b.has(p)) (opt ? c.grantOption : c.grant).push(p);
    else if (opt && !b.get(p)) {
      c.grantOption.push(p);
      c.upgraded.push(p);
    }
  }
  for (const [p, opt] of b) {
    if (!a.has(p)) {
      c.revoke.push(p);
      if (opt) c.revokeHadOption.push(p);
    } else if (opt && !a.get(p)) c.revokeOption.push(p);
  }
  for (const list of Object.values(c) as string[][]) list.sort(byOrder);
  return c;
}

/** The objects saying how `now` differs from `base` on `t`: what each grantee was granted, and what was revoked from it. */
function deltaObjects(t: Target, owner: string, base: Acls, now: Acls, source?: string): SqlObject[] {
  const { on, name: what } = clauses(t);
  const grantees = new Set([...base.object.keys(), ...now.object.keys()]);
  const columns = new Set([...base.columns.keys(), ...now.columns.keys()]);
  for (const c of columns)
    for (const g of [...(base.columns.get(c)?.keys() ?? []), ...(now.columns.get(c)?.keys() ?? [])]) grantees.add(g);
  const out: SqlObject[] = [];
  const base_ = { kind: 'privileges' as const, provides: [], deps: [], ...(source !== undefined ? { source } : {}) };
  for (const g of [...grantees].sort()) {
    const whole = change(base.object.get(g), now.object.get(g));
    const perColumn = [...columns]
      .sort()
      .map((c) => [c, change(base.columns.get(c)?.get(g), now.columns.get(c)?.get(g))] as const);
    const st = (verb: string, privs: readonly string[], tail: string): string[] =>
      privs.length > 0 ? [`${verb} ${privs.join(', ')} ON ${on} ${tail}`] : [];
    // Column privileges: one statement per privilege, its columns listed.
    const colSt = (verb: string, pick: (x: Change) => string[], tail: string): string[] =>
      ORDER.flatMap((p) => {
        const cols = perColumn.filter(([, x]) => pick(x).includes(p)).map(([c]) => quoteIdent(c));
        return cols.length > 0 ? [`${verb} ${p} (${cols.join(', ')}) ON ${on} ${tail}`] : [];
      });
    const to = `TO ${g}`;
    const from = `FROM ${g}`;
    const granted = [
      ...st('GRANT', whole.grant, to),
      ...st('GRANT', whole.grantOption, `${to} WITH GRANT OPTION`),
      ...colSt('GRANT', (x) => x.grant, to),
      ...colSt('GRANT', (x) => x.grantOption, `${to} WITH GRANT OPTION`),
    ];
    if (granted.length > 0) {
      const fresh = (x: Change): string[] => x.grantOption.filter((p) => !x.upgraded.includes(p));
      const name = `${what} to ${g}`;
      out.push({
        ...base_,
        id: `privileges ${name}`,
        name,
        create: granted,
        drop: [
          ...st('REVOKE', [...whole.grant, ...fresh(whole)].sort(byOrder), from),
          ...st('REVOKE GRANT OPTION FOR', whole.upgraded, from),
          ...colSt('REVOKE', (x) => [...x.grant, ...fresh(x)], from),
          ...colSt('REVOKE GRANT OPTION FOR', (x) => x.upgraded, from),
        ],
      });
    }
    const revoked = [
      ...st('REVOKE', whole.revoke, from),
      ...st('REVOKE GRANT OPTION FOR', whole.revokeOption, from),
      ...colSt('REVOKE', (x) => x.revoke, from),
      ...colSt('REVOKE GRANT OPTION FOR', (x) => x.revokeOption, from),
    ];
    if (revoked.length > 0) {
      const plain = (x: Change): string[] => x.revoke.filter((p) => !x.revokeHadOption.includes(p));
      const name = `${what} revoked from ${g === owner ? 'its owner' : g}`;
      out.push({
        ...base_,
        id: `privileges ${name}`,
        name,
        create: revoked,
        drop: [
          ...st('GRANT', plain(whole), to),
          ...st('GRANT', [...whole.revokeHadOption, ...whole.revokeOption].sort(byOrder), `${to} WITH GRANT OPTION`),
          ...colSt('GRANT', plain, to),
          ...colSt('GRANT', (x) => [...x.revokeHadOption, ...x.revokeOption], `${to} WITH GRANT OPTION`),
        ],
      });
    }
  }
  return out;
}

/** Whether the catalog said the target's ACLs are as they were left ("init": the same array read for both). */
const asLeft = (x: ExtensionTarget): boolean =>
  x.now === x.init && Object.values(x.columns ?? {}).every((c) => c.now === c.init);

/** The catalog's side: objects for what extensions made whose privileges are not as their scripts left them. */
export function extensionPrivilegesFromCatalog(targets: readonly ExtensionTarget[]): SqlObject[] {
  // (Most are as they were left: some 200 of pg_catalog's alone, not compared one by one.)
  return targets.flatMap((x) => (asLeft(x) ? [] : deltaObjects(x, x.owner, acls(x, 'init'), acls(x, 'now'))));
}
/** The GRANT / REVOKE that make the ACLs `worker` reads of `t` (a worker's) those `t` has (the coordinator's). */
export const workerDelta = (t: ExtensionTarget, worker: ExtensionTarget): string[] =>
  deltaObjects(t, t.owner, acls(worker, 'now'), acls(t, 'now')).flatMap((o) => o.create);

/** The statement of one op, as the files wrote it. */
function opStatement(op: PrivilegeOp): string {
  const { on } = clauses(op.target);
  const priv = op.column === undefined ? op.priv : `${op.priv} (${quoteIdent(op.column)})`;
  if (op.grant) return `GRANT ${priv} ON ${on} TO ${op.grantee}${op.option ? ' WITH GRANT OPTION' : ''}`;
  return `REVOKE ${op.option ? 'GRANT OPTION FOR ' : ''}${priv} ON ${on} FROM ${op.grantee}`;
}

/** Whether the plan knows `t` as something other than an extension's: declared, or in the cluster. */
function knownElsewhere(t: Target, desired: ClusterModel, actual: ClusterModel, provides: () => Set<string>): boolean {
  const models = [desired, actual];
  const provided = (ref: string): boolean => provides().has(ref);
  switch (t.type) {
    case 'TABLE':
    case 'SEQUENCE':
      return (
        models.some((m) => m.tables[t.name] !== undefined || m.sequences[t.name] !== undefined) ||
        provided(relationRef(t.name))
      );
    case 'FUNCTION':
    case 'PROCEDURE':
      return models.some((m) => m.routines[t.name] !== undefined || m.objects[`aggregate ${t.name}`] !== undefined);
    case 'TYPE':
      return provided(typeRef(t.name));
    case 'SCHEMA':
      // (One the files name is among the desired schemas: made by the plan unless an extension made it.)
      return true;
    default:
      return false;
  }
}

/**
 * The declared side, once the cluster is known: the files' GRANT / REVOKE on what the cluster's
 * extensions made, applied again to what their scripts left, replace what the files' statements
 * gave applied to PostgreSQL's defaults. A schema an extension made is not one to create. On what
 * an extension the plan creates will make (nothing else in the plan or the cluster has that name),
 * the statements run as the files wrote them, after it: what its script grants is known only then
 * (a REVOKE SELECT ON pg_stat_statements FROM PUBLIC takes what the script gave), and the plan after
 * it compares them as above.
 */
export function withExtensionPrivileges(
  desired: ClusterModel,
  actual: ClusterModel,
  searchPath?: string,
): ClusterModel {
  const targets = actual.extensionTargets;
  const ops = desired.privilegeOps;
  if (!targets || !ops || ops.length === 0) return desired;
  const newExtensions = Object.values(desired.objects).filter((o) => o.kind === 'extension' && !actual.objects[o.id]);
  const byTarget = new Map<string, PrivilegeOp[]>();
  const pending = new Map<string, PrivilegeOp[]>();
  // What the plan's objects provide, read once and only when needed (a plan with thousands of grants).
  let provides: Set<string> | undefined;
  const allProvides = (): Set<string> =>
    (provides ??= new Set([desired, actual].flatMap((m) => Object.values(m.objects).flatMap((o) => o.provides))));
  const known = new Map<string, boolean>();
  const isKnown = (key: string, t: Target): boolean => {
    let k = known.get(key);
    if (k === undefined) known.set(key, (k = knownElsewhere(t, desired, actual, allProvides)));
    return k;
  };
  for (const op of ops) {
    if (DEFAULTS.has(op.target.type)) continue; // ALTER DEFAULT PRIVILEGES: no extension's object
    const key = extensionTargetKey(op.target);
    const into =
      targets[key] !== undefined
        ? byTarget
        : newExtensions.length > 0 && !isKnown(key, op.target)
          ? pending
          : undefined;
    into?.set(key, [...(into.get(key) ?? []), op]);
  }
  if (byTarget.size === 0 && pending.size === 0) return desired;
  const objects = dict<SqlObject>();
  const replaced = [...byTarget.values(), ...pending.values()].map((l) => privilegesIdPrefix(l[0]!.target));
  for (const [id, o] of Object.entries(desired.objects)) if (!replaced.some((p) => id.startsWith(p))) objects[id] = o;
  const path = searchPath !== undefined ? { searchPath } : {};
  const extensionSchemas = new Set<string>();
  for (const [key, list] of byTarget) {
    const x = targets[key]!;
    if (x.type === 'SCHEMA') extensionSchemas.add(x.name);
    const base = acls(x, 'init');
    for (const o of deltaObjects(x, x.owner, base, replay(base, list), list[0]!.where))
      objects[o.id] = { ...o, ...path };
  }
  for (const list of pending.values()) {
    const t = list[0]!.target;
    const name = `${clauses(t).name}${AS_WRITTEN}`;
    objects[`privileges ${name}`] = {
      kind: 'privileges',
      id: `privileges ${name}`,
      name,
      provides: [],
      // After the extensions the plan creates.
      deps: newExtensions.map((e) => e.id),
      create: list.map(opStatement),
      drop: [],
      ...(list[0]!.where !== undefined ? { source: list[0]!.where } : {}),
      ...path,
    };
  }
  return { ...desired, objects, schemas: desired.schemas.filter((s) => !extensionSchemas.has(quoteIdent(s))) };
}
