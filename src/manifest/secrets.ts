// The environment a manifest's user mappings name (`'${env:NAME}'` in their options): each
// variable's digest, for the plan to compare with the catalog's (objects/user-mapping.ts), never
// its value; and a warning for each variable that is not set, since that option is then not
// compared, and apply refuses a step that needs it.
import type { Problem } from '../errors.js';
import type { ClusterModel, SqlObject } from '../model/types.js';
import { placeholders, secretDigest } from '../objects/user-mapping.js';

/** The desired model with each user mapping's `secrets`, and a warning per unset variable. */
export function withSecretDigests(
  desired: ClusterModel,
  env: Readonly<Record<string, string | undefined>>,
): { desired: ClusterModel; warnings: Problem[] } {
  const mappings = Object.values(desired.objects).filter((o) => o.kind === 'user mapping');
  if (mappings.length === 0) return { desired, warnings: [] };
  const objects = { ...desired.objects };
  const warnings: Problem[] = [];
  for (const o of mappings) {
    const secrets: Record<string, string | null> = {};
    for (const name of placeholders(o.create)) {
      const value = env[name];
      secrets[name] = value === undefined ? null : secretDigest(value);
      if (value === undefined) warnings.push(unsetWarning(o, name));
    }
    objects[o.id] = { ...o, secrets };
  }
  return { desired: { ...desired, objects }, warnings };
}

function unsetWarning(o: SqlObject, name: string): Problem {
  const at = /^(.*):(\d+):(\d+)$/.exec(o.source ?? '');
  return {
    severity: 'warning',
    code: 'secret_unset',
    message: `${o.id} names \${env:${name}}, and ${name} is not set here: its value is not compared with the cluster's, and apply refuses to create or change this mapping without it`,
    path: '',
    ...(at ? { file: at[1]!, line: Number(at[2]), col: Number(at[3]) } : {}),
  };
}
