// Steps that widen who may see or do what, against what the cluster holds: a permissive policy
// created or a policy changed, row-level security disabled or no longer forced, a view that loses
// security_invoker or security_barrier, a grant that gives a role more (PUBLIC's are
// public_privileges), a function that becomes LEAKPROOF, an extension updated (its scripts run
// with the applier's rights). Each such step carries `widens_access` and says what it widens.
import type { ClusterModel, SqlObject } from '../../model/types.js';
import { tryParseStatements, type Node } from '../../sql/pg-parse.js';
import { sameObject, type RecordedObject } from '../same-object.js';
import { expressionText } from './expression-text.js';
import type { SecurityNote } from '../steps/step-common.js';
import type { Step } from '../steps/steps.js';

const widens = (text: string): SecurityNote => ({ hazard: 'widens_access', text: `widens access: ${text}` });

/** Every parsed statement of `statements` (the parse is cached by text). */
const parsed = (statements: readonly string[]): { stmt: Node; text: string }[] =>
  statements.flatMap((text) => (tryParseStatements(text) ?? []).map((r: Node) => ({ stmt: r.stmt, text })));

const truthy = (d: Node): boolean => {
  const a = d.DefElem?.arg;
  if (a === undefined) return true;
  if (a.Boolean) return a.Boolean.boolval === true;
  if (a.Integer) return a.Integer.ival === 1;
  const v = String(a.String?.sval ?? a.TypeName?.names?.[0]?.String?.sval ?? '').toLowerCase();
  return ['true', 'on', 'yes', '1'].includes(v);
};
/** The options of a CREATE [MATERIALIZED] VIEW that are on (security_invoker, security_barrier…). */
function viewOptions(statements: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const { stmt } of parsed(statements.filter((t) => /security_/i.test(t))))
    for (const o of (stmt.ViewStmt?.options ?? []) as Node[]) if (truthy(o)) out.add(o.DefElem.defname);
  return out;
}

function policyNote(d: SqlObject, before: SqlObject | undefined, recorded: RecordedObject | undefined): SecurityNote[] {
  // Created again as it was (a column it reads changes type): nothing widens.
  if (before !== undefined && sameObject(d, before, recorded)) return [];
  return parsed(d.create).flatMap(({ stmt, text }) => {
    const p = stmt.CreatePolicyStmt;
    if (!p) return [];
    const on = `policy ${p.policy_name} on ${d.parent?.replace(/^relation /, '') ?? p.table?.relname}`;
    const clauses = [
      ...(p.qual ? [`USING ${expressionText(text, p.qual)}`] : []),
      ...(p.with_check ? [`WITH CHECK ${expressionText(text, p.with_check)}`] : []),
    ].join(' ');
    if (p.permissive === true) return [widens(`${on} is permissive${clauses ? ` (${clauses})` : ''}`)];
    // A restrictive policy narrows what the permissive ones let through: changed, it may narrow less.
    return before !== undefined ? [widens(`${on} changes (restrictive${clauses ? `, ${clauses}` : ''})`)] : [];
  });
}

/** What a GRANT gives, as `PRIV`, `PRIV (col)`, each with ` WITH GRANT OPTION` when it does. */
function granted(statements: readonly string[]): { grantee: string; privileges: Set<string> } {
  const privileges = new Set<string>();
  let grantee = '';
  for (const { stmt } of parsed(statements)) {
    const g = stmt.GrantStmt ?? stmt.AlterDefaultPrivilegesStmt?.action;
    if (!g?.is_grant) continue;
    grantee = ((g.grantees ?? []) as Node[]).map((r) => r.RoleSpec?.rolename ?? 'PUBLIC').join(', ');
    const opt = g.grant_option ? ' WITH GRANT OPTION' : '';
    for (const p of (g.privileges ?? [{ AccessPriv: {} }]) as Node[]) {
      const name = String(p.AccessPriv?.priv_name ?? 'all').toUpperCase();
      const cols = ((p.AccessPriv?.cols ?? []) as Node[]).map((c) => c.String?.sval as string);
      if (cols.length === 0) privileges.add(`${name}${opt}`);
      for (const c of cols) privileges.add(`${name} (${c})${opt}`);
    }
  }
  return { grantee, privileges };
}
function grantNote(d: SqlObject, before: SqlObject | undefined): SecurityNote[] {
  const now = granted(d.create);
  // PUBLIC's privileges are the public_privileges hazard's (steps/statement-hazards.ts).
  if (now.grantee === '' || now.grantee === 'PUBLIC') return [];
  const had = granted(before?.create ?? []).privileges;
  // Held already: the same, with the grant option, or on the whole table (for a column).
  const covered = (p: string): boolean =>
    had.has('ALL') ||
    [p, p.replace(/ \(.*\)/, '')].some(
      (x) => had.has(x) || (!x.endsWith(' WITH GRANT OPTION') && had.has(`${x} WITH GRANT OPTION`)),
    );
  const more = [...now.privileges].filter((p) => !covered(p));
  return more.length > 0 ? [widens(`${now.grantee} gains ${more.join(', ')}`)] : [];
}

/** ENABLE / FORCE ROW LEVEL SECURITY among statements. */
function rowSecurity(statements: readonly string[]): { enable: boolean; force: boolean } {
  const subtypes = parsed(statements).flatMap(({ stmt }) =>
    ((stmt.AlterTableStmt?.cmds ?? []) as Node[]).map((c) => c.AlterTableCmd?.subtype as string),
  );
  return { enable: subtypes.includes('AT_EnableRowSecurity'), force: subtypes.includes('AT_ForceRowSecurity') };
}
function rowSecurityNote(table: string, before: SqlObject, d: SqlObject | undefined): SecurityNote[] {
  const had = rowSecurity(before.create);
  const now = rowSecurity(d?.create ?? []);
  return [
    ...(had.enable && !now.enable ? [widens(`row level security disabled on ${table}`)] : []),
    ...(had.force && !now.force
      ? [widens(`row level security no longer forced on ${table} (its owner bypasses it)`)]
      : []),
  ];
}

// (A definition that does not spell the word is not parsed: most are not.)
const leakproof = (definition: string | undefined): boolean =>
  parsed(definition !== undefined && /leakproof/i.test(definition) ? [definition] : []).some(({ stmt }) =>
    ((stmt.CreateFunctionStmt?.options ?? []) as Node[]).some((o) => o.DefElem?.defname === 'leakproof' && truthy(o)),
  );

/** The security notes of one step, against the desired and actual models. */
function notesOf(
  s: Step,
  desired: ClusterModel,
  actual: ClusterModel,
  recorded: Readonly<Record<string, RecordedObject>>,
): SecurityNote[] {
  switch (s.kind) {
    case 'create_object':
    case 'alter_object': {
      const d = desired.objects[s.object];
      const before = actual.objects[s.object];
      // ALTER EXTENSION … UPDATE runs the extension's update scripts (SET SCHEMA runs none).
      if (s.objectKind === 'extension' && parsed(s.statements).some(({ stmt }) => stmt.AlterExtensionStmt))
        return [
          widens(
            `${s.object} is updated to version ${d?.extension?.version ?? '?'} (its scripts run with this role's rights)`,
          ),
        ];
      if (d === undefined) return [];
      if (s.objectKind === 'policy') return policyNote(d, before, recorded[d.id]);
      if (s.objectKind === 'privileges') return grantNote(d, before);
      if ((s.objectKind === 'view' || s.objectKind === 'materialized view') && before !== undefined) {
        const now = viewOptions(d.create);
        return [...viewOptions(before.create)]
          .filter((o) => (o === 'security_invoker' || o === 'security_barrier') && !now.has(o))
          .map((o) => widens(`${s.object} loses ${o}`));
      }
      return [];
    }
    case 'drop_object': {
      const before = actual.objects[s.object];
      return s.objectKind === 'row level security' && before !== undefined
        ? rowSecurityNote(before.name, before, desired.objects[s.object])
        : [];
    }
    case 'create_routine':
    case 'replace_routine':
      return leakproof(s.definition) && !leakproof(actual.routines[s.signature]?.definition)
        ? [
            widens(
              `${s.routineKind} ${s.signature} is LEAKPROOF (it may be shown rows that policies and security barrier views hide)`,
            ),
          ]
        : [];
    default:
      return [];
  }
}

/** The steps, each with what it widens as a `widens_access` note. */
export function markAccessWidening(
  steps: readonly Step[],
  desired: ClusterModel,
  actual: ClusterModel,
  recorded: Readonly<Record<string, RecordedObject>> = {},
): Step[] {
  return steps.map((s) => {
    const notes = notesOf(s, desired, actual, recorded);
    return notes.length === 0 ? s : { ...s, security: [...(s.security ?? []), ...notes] };
  });
}
