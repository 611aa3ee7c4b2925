// The real-schemas report: a markdown table, one row per schema, and notes under it (the first
// plan steps, errors and crashes) — the same text on stdout and in docs/performance.md.
import type { SchemaOutcome, StepRun } from './real-schemas.js';

const cell = (s: StepRun | undefined): string => (s === undefined ? '–' : s.crash ? `CRASH (${s.exit})` : `${s.exit}`);

function planCell(p: SchemaOutcome['plan']): string {
  if (!p) return '–';
  const problems = p.problems > 0 ? `, ${p.problems} problems` : '';
  return `${cell(p)} / ${p.steps} / ${p.unmanaged} / ${p.notManaged}${problems}`;
}

function leftOutCount(o: SchemaOutcome): number {
  return o.introspect.leftOut.reduce((n, l) => n + Number(/\((\d+)\)$/.exec(l)?.[1] ?? 0), 0);
}

/** One row per schema, then a note per schema that did not come through cleanly. */
export function realSchemasTable(outcomes: readonly SchemaOutcome[]): string {
  const rows = [
    '| schema | load errors | introspect (left out) | plan exit / steps / unmanaged / not managed | --prove | apply | dumps | re-plan | s |',
    '|---|---:|---|---|---|---|---|---|---:|',
  ];
  const notes: string[] = [];
  for (const o of outcomes) {
    const load =
      o.loadErrors === o.expectedLoadErrors ? `${o.loadErrors}` : `${o.loadErrors} (want ${o.expectedLoadErrors})`;
    const dumps =
      o.dumpDiffLines === undefined ? '–' : o.dumpDiffLines === 0 ? 'equal' : `${o.dumpDiffLines} lines differ`;
    const replan = o.replan ? `${cell(o.replan)}${o.replan.exit === 2 ? ` (${o.replan.steps} steps)` : ''}` : '–';
    rows.push(
      `| ${o.schema} | ${load} | ${cell(o.introspect)} (${leftOutCount(o)}) | ${planCell(o.plan)} | ${o.prove ? (o.prove.verdict === 'applied and converged' ? 'proved' : o.prove.verdict.slice(0, 60)) : '–'} | ${cell(o.apply)} | ${dumps} | ${replan} | ${o.seconds} |`,
    );
    const said: string[] = [];
    if (o.introspect.leftOut.length > 0) said.push(`left out: ${o.introspect.leftOut.join(', ')}`);
    if (o.introspect.firstError) said.push(`introspect: ${o.introspect.firstError}`);
    if (o.plan && o.plan.exit !== 0) said.push(`plan: ${o.plan.first.join('; ') || o.plan.firstError}`);
    if (o.prove && o.prove.verdict !== 'applied and converged')
      said.push(`--prove: ${o.prove.verdict}${o.prove.firstError ? ` (${o.prove.firstError})` : ''}`);
    if (o.apply?.firstError) said.push(`apply: ${o.apply.firstError}`);
    if (o.dumpDiffSample) said.push(`dumps: ${o.dumpDiffSample.map((l) => `\`${l}\``).join(', ')}`);
    if (o.replan && o.replan.exit !== 0) said.push(`re-plan: ${o.replan.first.join('; ') || o.replan.firstError}`);
    if (said.length > 0) notes.push(`- **${o.schema}**: ${said.join(' — ')}`);
  }
  return [...rows, '', ...notes].join('\n');
}
