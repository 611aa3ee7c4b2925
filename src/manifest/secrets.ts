// The environment a manifest's user mappings and subscriptions name (`'${env:NAME}'` in a
// mapping's options, a subscription's connection string): each
// variable's digest, for the plan to compare with the catalog's (objects/user-mapping.ts), never
// its value; and a warning for each variable that is not set, since that option is then not
// compared, and apply refuses a step that needs it.
import type { Problem } from '../errors.js';
import { sourceLocation } from '../util/source-location.js';
import type { ClusterModel, SqlObject } from '../model/types.js';
import { placeholders, secretDigest } from '../objects/user-mapping.js';
import { connectionVariable } from '../objects/subscription.js';

/** The environment variables an object's statements name: a user mapping's options, a subscription's connection. */
function variables(o: SqlObject): string[] {
  if (o.kind === 'user mapping') return placeholders(o.create);
  const v = o.kind === 'subscription' ? connectionVariable(o.create) : undefined;
  return v === undefined ? [] : [v];
}

/** The desired model with each user mapping's and subscription's `secrets`, and a warning per unset variable. */
export function withSecretDigests(
  desired: ClusterModel,
  env: Readonly<Record<string, string | undefined>>,
): { desired: ClusterModel; warnings: Problem[] } {
  const mappings = Object.values(desired.objects).filter((o) => o.kind === 'user mapping' || o.kind === 'subscription');
  if (mappings.length === 0) return { desired, warnings: [] };
  const objects = { ...desired.objects };
  const warnings: Problem[] = [];
  for (const o of mappings) {
    const secrets: Record<string, string | null> = {};
    for (const name of variables(o)) {
      const value = env[name];
      secrets[name] = value === undefined ? null : secretDigest(value);
      if (value === undefined) warnings.push(unsetWarning(o, name));
    }
    objects[o.id] = { ...o, secrets };
  }
  return { desired: { ...desired, objects }, warnings };
}

function unsetWarning(o: SqlObject, name: string): Problem {
  return {
    severity: 'warning',
    code: 'secret_unset',
    message: `${o.id} names \${env:${name}}, and ${name} is not set here: its value is not compared with the cluster's, and apply refuses to create or change it without it`,
    path: '',
    ...sourceLocation(o.source),
  };
}
