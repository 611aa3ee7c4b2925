// The hazards of what a step does to security (steps/statement-hazards.ts finds them in statements;
// checks/access-notes.ts and checks/foreign-code.ts in what the plan changes): a module of its own so the list
// of hazards (steps/steps.ts, apply's --allow-hazards) loads without the parser.
export const SECURITY_HAZARDS = [
  'security_definer',
  'creates_extension',
  'public_privileges',
  'weakens_security',
  'widens_access',
  'runs_foreign_code',
] as const;
export type SecurityHazard = (typeof SECURITY_HAZARDS)[number];
