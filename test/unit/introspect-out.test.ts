// introspect --out refuses to overwrite the manifest or any file beside it without --force (#28.7).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProject } from '../../src/commands/introspect.js';
import type { CommandIo } from '../../src/commands/io.js';

const project = { manifest: 'version: 1\n', files: { 'sql/views.sql': 'new view', 'routines/public.f.sql': 'new f' } };

function folder(): { io: CommandIo; err: string[] } {
  const cwd = mkdtempSync(join(tmpdir(), 'cm-introspect-'));
  const err: string[] = [];
  return { io: { stdout: () => {}, stderr: (t) => err.push(t), env: {}, isTTY: false, cwd }, err };
}

describe('introspect --out', () => {
  it('writes the manifest and its files into an empty folder', () => {
    const { io } = folder();
    writeProject('p/m.yaml', project, false, io);
    expect(readFileSync(join(io.cwd, 'p/m.yaml'), 'utf8')).toBe('version: 1\n');
    expect(readFileSync(join(io.cwd, 'p/sql/views.sql'), 'utf8')).toBe('new view');
  });

  it('refuses, writing nothing, when the manifest or a file exists; --force overwrites and says so', () => {
    const { io, err } = folder();
    mkdirSync(join(io.cwd, 'p/routines'), { recursive: true });
    writeFileSync(join(io.cwd, 'p/m.yaml'), 'mine');
    writeFileSync(join(io.cwd, 'p/routines/public.f.sql'), 'my f');
    expect(() => writeProject('p/m.yaml', project, false, io)).toThrow(
      'not overwriting existing file(s): p/m.yaml, p/routines/public.f.sql (use --force)',
    );
    expect(readFileSync(join(io.cwd, 'p/m.yaml'), 'utf8')).toBe('mine');
    expect(existsSync(join(io.cwd, 'p/sql/views.sql'))).toBe(false);
    writeProject('p/m.yaml', project, true, io);
    expect(readFileSync(join(io.cwd, 'p/routines/public.f.sql'), 'utf8')).toBe('new f');
    expect(err).toContain('overwriting p/m.yaml, p/routines/public.f.sql (--force)\n');
  });
});
