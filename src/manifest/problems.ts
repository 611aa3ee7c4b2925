// Collects validation problems with their manifest path; positions are attached at the end.
import type { Path } from './locate.js';

export interface RawProblem {
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly message: string;
  readonly path: Path;
  readonly atKey?: boolean;
}

/** An append-only list of problems found while reading a manifest. */
export class ProblemList {
  readonly items: RawProblem[] = [];

  error(path: Path, code: string, message: string, atKey = false): void {
    this.items.push({ severity: 'error', code, message, path, atKey });
  }

  warn(path: Path, code: string, message: string): void {
    this.items.push({ severity: 'warning', code, message, path });
  }

  get hasErrors(): boolean {
    return this.items.some((p) => p.severity === 'error');
  }
}
