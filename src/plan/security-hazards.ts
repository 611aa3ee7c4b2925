// The hazards of what a statement does to security (statement-hazards.ts finds them): a module of
// its own so the list of hazards (steps.ts, apply's --allow-hazards) loads without the parser.
export const SECURITY_HAZARDS = [
  'security_definer',
  'creates_extension',
  'public_privileges',
  'weakens_security',
] as const;
export type SecurityHazard = (typeof SECURITY_HAZARDS)[number];
