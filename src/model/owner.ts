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
