// The starter templates `init` writes (folders of templates/): a module of its own so the CLI's
// flags name them without loading init.
export const TEMPLATES = ['hammerdb', 'pgbench', 'saas'] as const;
