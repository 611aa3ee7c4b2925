// Owners the catalog names: of objects and routines, and of the functions of event triggers.

/**
 * Actual only: the role that owns an object or routine, when it is not the role that read the
 * catalog (the one that applies). A plan that drops and creates the object again gives it back to
 * this role; code it owns that a step would run with the applier's rights is a hazard unless the
 * role is a superuser too (plan/checks/foreign-code.ts).
 */
export interface Owner {
  readonly name: string;
  readonly superuser: boolean;
}

/** Actual only: an enabled event trigger whose function another role owns: it runs on every DDL statement. */
export interface EventTrigger {
  readonly name: string;
  /** The function it runs, as schema.name(argument types). */
  readonly routine: string;
  readonly owner: Owner;
}

/** Actual only: who owns what a GRANT / REVOKE may name (a REVOKE from an owner is what it revoked from itself). */
export interface Owners {
  /** The role reading the catalog (the applier), quoted: it owns what `owners` does not name. */
  readonly reader?: string;
  /** The owners other than the reader, by `relation app.t`, `schema app`, `routine app.f(integer)`, `type app.e`, `server s`. */
  readonly owners?: Readonly<Record<string, string>>;
}

/** Privileges an object's owner revoked from itself: the owner (quoted) and the object's key in `Owners.owners`. */
export interface OwnerRevoke {
  readonly role: string;
  readonly target: string;
}

/** What an SqlObject says of its owner. */
export interface OwnedParts {
  /** Actual only: the owner of a view, materialized view, type, aggregate or operator, when another role than the one reading the catalog. */
  readonly owner?: Owner;
  readonly ownerRevoke?: OwnerRevoke;
}
