// The plan's output formats: a module of its own so the CLI's flags name them without loading
// the formatters.
export const PLAN_FORMATS = ['text', 'sql', 'json', 'markdown'] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];
