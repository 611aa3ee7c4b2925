// The public surface of the package, name by name and kind by kind (the API report the
// packaging issue asks CI to check): what `import { … } from 'citus-migrate'` offers, read from
// src/index.ts with TypeScript's own checker. A name added, removed or changed in kind fails this
// test until the list below says so: the surface changes only on purpose.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SURFACE = [
  'class BenchCheckError',
  'class BenchDataError',
  'class ClusterError',
  'class CmError',
  'class FileError',
  'class ManifestError',
  'class OptionsError',
  'class UsageError',
  'const EXIT',
  'const HAZARDS',
  'const PLAN_FORMATS',
  'const manifestSchema',
  'function analyze',
  'function apply',
  'function bench',
  'function clusterDown',
  'function clusterStatus',
  'function clusterUp',
  'function connectionTarget',
  'function formatPlan',
  'function formatProblem',
  'function hammerdbManifest',
  'function history',
  'function historyEntry',
  'function introspect',
  'function loadManifest',
  'function loadManifestText',
  'function parseHazards',
  'function plan',
  'function readBaseline',
  'function readSavedPlan',
  'interface AnalysisDocument',
  'interface ApplyDetail',
  'interface ApplyRunOptions',
  'interface BenchFunctionOptions',
  'interface BenchReport',
  'interface BenchResult',
  'interface BenchRunOptions',
  'interface BenchTick',
  'interface ClusterPlace',
  'interface ClusterStatusResult',
  'interface ClusterUpOptions',
  'interface ClusterUpResult',
  'interface ConnectionTarget',
  'interface HistoryRow',
  'interface IntrospectResult',
  'interface LoadedManifest',
  'interface NodeStatus',
  'interface PlanDocument',
  'interface PlanFunctionOptions',
  'interface PlanProof',
  'interface PlanStep',
  'interface Problem',
  'interface RoutineAnalysis',
  'interface SavedPlanSource',
  'type ApplyEvent',
  'type ApplyResult',
  'type ApplySource',
  'type ApplyTimings',
  'type BenchEvent',
  'type ClusterNote',
  'type DatabaseTarget',
  'type HammerdbVariant',
  'type Hazard',
  'type Manifest',
  'type ManifestInput',
  'type PlanFormat',
  'type SavedPlan',
];

/** The exports of src/index.ts as "kind name", sorted. */
function surface(): string[] {
  const program = ts.createProgram(['src/index.ts'], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile('src/index.ts')!;
  return checker
    .getExportsOfModule(checker.getSymbolAtLocation(file)!)
    .map((s) => {
      const f = (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s).flags;
      const kind =
        f & ts.SymbolFlags.Function
          ? 'function'
          : f & ts.SymbolFlags.Class
            ? 'class'
            : f & ts.SymbolFlags.Variable
              ? 'const'
              : f & ts.SymbolFlags.Interface
                ? 'interface'
                : f & ts.SymbolFlags.TypeAlias
                  ? 'type'
                  : 'other';
      return `${kind} ${s.name}`;
    })
    .sort();
}

describe('the public API', () => {
  it('is exactly the surface listed here', () => {
    expect(surface()).toEqual(SURFACE);
  }, 60_000);
});
