// Privileges as objects: one per (object, grantee), e.g. `privileges table app.t to cm_reader`,
// whose statements are canonical GRANTs (privileges in a fixed order, those WITH GRANT OPTION
// apart, column privileges per privilege). Both sides go through the same renderer: the catalog
// side from aclexplode rows, the declared side from the GRANT / REVOKE statements of the SQL
// files applied in order. A default that was revoked (EXECUTE on a function, USAGE on a type
// or on the public schema, from PUBLIC) is an object of its own: `… revoked from PUBLIC`; so is
// what an owner revoked from itself, `… revoked from its owner` (declared: a REVOKE from a role
// that holds nothing there, which plan/checks/grant-targets.ts holds to the object's owner).
import type { SqlObject } from '../model/types.js';
import { quoteIdent } from '../sql/quote.js';

import type { DefaultsType, PrivilegeOp, Target, TargetType } from '../model/privilege-types.js';
export type { DefaultsType, PrivilegeOp, Target, TargetType };

const isDefaults = (t: Target): boolean => ['TABLES', 'SEQUENCES', 'FUNCTIONS', 'TYPES', 'SCHEMAS'].includes(t.type);
/** The statement prefix and the ON clause of a target, and how its objects' names start. */
export function clauses(t: Target): { prefix: string; on: string; name: string } {
  if (!isDefaults(t)) return { prefix: '', on: `${t.type} ${t.name}`, name: `${t.type.toLowerCase()} ${t.name}` };
  const scope = `FOR ROLE ${t.name}${t.inSchema ? ` IN SCHEMA ${t.inSchema}` : ''}`;
  return {
    prefix: `ALTER DEFAULT PRIVILEGES ${scope} `,
    on: t.type,
    name: `defaults for role ${t.name}${t.inSchema ? ` in schema ${t.inSchema}` : ''} on ${t.type.toLowerCase()}`,
  };
}

export const ORDER = [
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'TRUNCATE',
  'REFERENCES',
  'TRIGGER',
  'USAGE',
  'CREATE',
  'EXECUTE',
];
/** Every privilege each kind of object takes (what ALL means). */
export const ALL: Readonly<Record<TargetType, readonly string[]>> = {
  TABLE: ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'],
  SEQUENCE: ['USAGE', 'SELECT', 'UPDATE'],
  SCHEMA: ['USAGE', 'CREATE'],
  FUNCTION: ['EXECUTE'],
  PROCEDURE: ['EXECUTE'],
  TYPE: ['USAGE'],
  'FOREIGN SERVER': ['USAGE'],
  'FOREIGN DATA WRAPPER': ['USAGE'],
  LANGUAGE: ['USAGE'],
  TABLES: ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'],
  SEQUENCES: ['USAGE', 'SELECT', 'UPDATE'],
  FUNCTIONS: ['EXECUTE'],
  TYPES: ['USAGE'],
  SCHEMAS: ['USAGE', 'CREATE'],
};
/** What PUBLIC holds when nobody granted or revoked anything (PostgreSQL 15's acldefault). */
export function publicDefault(t: Target): readonly string[] {
  if (t.type === 'FUNCTION' || t.type === 'PROCEDURE' || (t.type === 'FUNCTIONS' && !t.inSchema)) return ['EXECUTE'];
  if (
    t.type === 'TYPE' ||
    t.type === 'LANGUAGE' ||
    (t.type === 'TYPES' && !t.inSchema) ||
    (t.type === 'SCHEMA' && t.name === 'public')
  )
    return ['USAGE'];
  return [];
}
/** A target's key in a PrivilegeSet's maps. */
const targetKey = (t: Target): string => `${t.type} ${t.name} ${t.inSchema ?? ''}`;
export const byOrder = (a: string, b: string): number => ORDER.indexOf(a) - ORDER.indexOf(b);
const OWNED_KIND: Partial<Record<TargetType, string>> = {
  TABLE: 'relation',
  SEQUENCE: 'relation',
  SCHEMA: 'schema',
  FUNCTION: 'routine',
  PROCEDURE: 'routine',
  TYPE: 'type',
  'FOREIGN SERVER': 'server',
};

interface Held {
  grantable: boolean;
}
interface Entry {
  readonly target: Target;
  readonly grantee: string;
  readonly privs: Map<string, Held>;
  readonly cols: Map<string, Map<string, Held>>;
}

/** Privileges held, keyed by target and grantee; build it with grant/revoke, read it with objects(). */
export class PrivilegeSet {
  /** With `record`, every grant and revoke is kept in `ops` too (the declared side). */
  constructor(private readonly record = false) {}
  readonly ops: PrivilegeOp[] = [];
  private readonly entries = new Map<string, Entry>();
  /** Targets whose ACL is set: PUBLIC's defaults are then explicit (absent = revoked). */
  private readonly explicit = new Map<string, Target>();
  private readonly sources = new Map<string, string>();
  /** Each target's owner (quoted), where known: the catalog's, or the role a REVOKE found holding nothing. */
  private readonly owners = new Map<string, string>();
  private readonly ownerSources = new Map<string, string>();
  /** Schemas the statements name (GRANT … ON SCHEMA, IN SCHEMA): they must exist. */
  readonly schemas = new Set<string>();

  private entry(t: Target, grantee: string): Entry {
    const key = `${targetKey(t)}\u0000${grantee}`;
    let e = this.entries.get(key);
    if (!e) {
      e = { target: t, grantee, privs: new Map(), cols: new Map() };
      this.entries.set(key, e);
    }
    return e;
  }

  /** Marks a target whose ACL exists (catalog) or that a statement touched (declared). */
  touch(t: Target, source?: string): void {
    const key = targetKey(t);
    if (!this.explicit.has(key)) {
      this.explicit.set(key, t);
      if (publicDefault(t).length > 0) {
        const pub = this.entry(t, 'PUBLIC');
        // Declared: PUBLIC starts with its defaults, which a REVOKE can take away. (The catalog
        // lists what PUBLIC holds once an ACL is set, so there it starts empty.)
        if (source !== undefined) for (const p of publicDefault(t)) pub.privs.set(p, { grantable: false });
      }
    }
    if (source !== undefined && !this.sources.has(key)) this.sources.set(key, source);
  }

  /** The catalog's owner of a target whose ACL is set (its own ACL entry says what it kept). */
  setOwner(t: Target, owner: string): void {
    this.owners.set(targetKey(t), owner);
    this.entry(t, owner);
  }

  private note(t: Target, grantee: string, priv: string, grant: boolean, option: boolean, column?: string): void {
    const where = this.sources.get(targetKey(t));
    this.ops.push({
      target: t,
      grantee,
      priv,
      grant,
      option,
      ...(column !== undefined ? { column } : {}),
      ...(where !== undefined ? { where } : {}),
    });
  }

  grant(t: Target, grantee: string, priv: string, grantable: boolean, column?: string): void {
    if (this.record) this.note(t, grantee, priv, true, grantable, column);
    const e = this.entry(t, grantee);
    if (column === undefined) e.privs.set(priv, { grantable: grantable || (e.privs.get(priv)?.grantable ?? false) });
    else {
      const c = e.cols.get(column) ?? new Map<string, Held>();
      c.set(priv, { grantable });
      e.cols.set(column, c);
    }
  }

  /**
   * Before a REVOKE of `grantee`'s privileges on `t` (not a column's, not only the grant option):
   * a role that holds nothing here can lose something only as the owner, who holds everything
   * without a grant (pg_dump writes REVOKE ALL … FROM owner, then GRANTs what it kept). `where`,
   * the statement's place, is the object's (a problem names it).
   */
  revokeFrom(t: Target, grantee: string, where?: string): void {
    // Default privileges: the role's own, those not limited to a schema (which only add).
    const defaults = isDefaults(t) && t.name === grantee && !t.inSchema;
    if (grantee === 'PUBLIC' || (OWNED_KIND[t.type] === undefined && !defaults)) return;
    const key = targetKey(t);
    const e = this.entry(t, grantee);
    if (this.owners.has(key) || e.privs.size > 0 || e.cols.size > 0) return;
    this.owners.set(key, grantee);
    if (where !== undefined) this.ownerSources.set(key, where);
    for (const p of ALL[t.type]) e.privs.set(p, { grantable: false });
  }

  revoke(t: Target, grantee: string, priv: string, grantOptionOnly: boolean, column?: string): void {
    if (this.record) this.note(t, grantee, priv, false, grantOptionOnly, column);
    const e = this.entry(t, grantee);
    const apply = (m: Map<string, Held>): void => {
      if (!m.has(priv)) return;
      if (grantOptionOnly) m.set(priv, { grantable: false });
      else m.delete(priv);
    };
    if (column === undefined) {
      apply(e.privs);
      // Revoking on the table revokes the same privilege on its columns.
      if (!grantOptionOnly) for (const c of e.cols.values()) c.delete(priv);
    } else if (e.cols.has(column)) apply(e.cols.get(column)!);
  }

  /** The privileges as objects. */
  objects(): SqlObject[] {
    const out: SqlObject[] = [];
    for (const e of this.entries.values()) {
      const t = e.target;
      const { prefix, on, name: what } = clauses(t);
      const key = targetKey(t);
      const defaults = e.grantee === 'PUBLIC' ? publicDefault(t) : [];
      const source = this.sources.get(key);
      const base = {
        kind: 'privileges' as const,
        ...(t.parent ? { parent: t.parent } : {}),
        provides: [],
        deps: t.parent ? [t.parent] : [],
        ...(source ? { source } : {}),
      };
      const missing = defaults.filter((p) => !e.privs.has(p));
      if (missing.length > 0 && this.explicit.has(key)) {
        const name = `${what} revoked from PUBLIC`;
        out.push({
          ...base,
          id: `privileges ${name}`,
          name,
          create: [`${prefix}REVOKE ${missing.join(', ')} ON ${on} FROM PUBLIC`],
          drop: [`${prefix}GRANT ${missing.join(', ')} ON ${on} TO PUBLIC`],
          ...(isDefaults(t) ? { defaultRevoke: { on: t.type as DefaultsType, privileges: missing } } : {}),
        });
      }
      if (this.owners.get(key) === e.grantee) {
        const lacks = ALL[t.type].filter((p) => !e.privs.has(p));
        if (lacks.length === 0) continue;
        const name = `${what} revoked from its owner`;
        const at = this.ownerSources.get(key);
        out.push({
          ...base,
          ...(at !== undefined ? { source: at } : {}),
          id: `privileges ${name}`,
          name,
          create: [`${prefix}REVOKE ${lacks.join(', ')} ON ${on} FROM ${e.grantee}`],
          drop: [`${prefix}GRANT ${lacks.join(', ')} ON ${on} TO ${e.grantee}`],
          // (Default privileges name their role: nothing to hold it to.)
          ...(isDefaults(t) ? {} : { ownerRevoke: { role: e.grantee, target: `${OWNED_KIND[t.type]} ${t.name}` } }),
        });
        continue;
      }
      const held = [...e.privs].filter(([p, h]) => !(defaults.includes(p) && !h.grantable));
      const create: string[] = [];
      const plain = held
        .filter(([, h]) => !h.grantable)
        .map(([p]) => p)
        .sort(byOrder);
      const opt = held
        .filter(([, h]) => h.grantable)
        .map(([p]) => p)
        .sort(byOrder);
      if (plain.length > 0) create.push(`${prefix}GRANT ${plain.join(', ')} ON ${on} TO ${e.grantee}`);
      if (opt.length > 0) create.push(`${prefix}GRANT ${opt.join(', ')} ON ${on} TO ${e.grantee} WITH GRANT OPTION`);
      // (Most entries hold no column privileges: the loop below would build 20 empty lists each.)
      for (const grantable of e.cols.size > 0 ? [false, true] : []) {
        for (const p of ORDER) {
          const cols = [...e.cols]
            .filter(([, m]) => m.get(p)?.grantable === grantable)
            .map(([c]) => c)
            .sort();
          if (cols.length > 0)
            create.push(
              `GRANT ${p} (${cols.map(quoteIdent).join(', ')}) ON ${on} TO ${e.grantee}${grantable ? ' WITH GRANT OPTION' : ''}`,
            );
        }
      }
      if (create.length === 0) continue;
      const name = `${what} to ${e.grantee}`;
      out.push({
        ...base,
        id: `privileges ${name}`,
        name,
        create,
        drop: [`${prefix}REVOKE ALL ON ${on} FROM ${e.grantee}`],
        ...(isDefaults(t)
          ? {
              defaultGrant: {
                on: t.type as DefaultsType,
                ...(t.inSchema ? { inSchema: t.inSchema } : {}),
                grantee: e.grantee,
              },
            }
          : {}),
      });
    }
    return out;
  }
}
