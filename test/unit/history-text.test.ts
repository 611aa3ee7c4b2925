import { describe, expect, it } from 'vitest';
import { formatApplyText, formatHistoryText } from '../../src/commands/history-text.js';
import { COLOR } from '../../src/util/color.js';

describe('history text', () => {
  it('is an aligned table under a header, with the state as plan prints it', () => {
    const base = {
      manifest_file: 'citus-migrate.yaml',
      tool_version: '0.1.0',
      db_user: 'postgres',
      client_host: 'ci-1',
      error: null,
    };
    const text = formatHistoryText([
      {
        ...base,
        id: 12,
        started_at: '2026-11-22 13:40:01.123456+00',
        duration_ms: 1523,
        outcome: 'failed',
        plan_fingerprint: 'fa5fa03a0a9a77aa',
        step_count: 14,
        error: { message: 'relation "x" does not exist\nmore' },
      },
      {
        ...base,
        id: 3,
        started_at: '2026-11-21 09:00:00+00',
        duration_ms: null,
        outcome: 'nothing_to_do',
        plan_fingerprint: '0123456789abcdef',
        step_count: 0,
      },
    ]);
    expect(text).toBe(
      [
        'ID  STARTED                 OUTCOME        STEPS  DURATION  BY             MANIFEST            STATE         VERSION  ERROR',
        '12  2026-11-22 13:40:01+00  failed            14   1523 ms  postgres@ci-1  citus-migrate.yaml  fa5fa03a0a9a  0.1.0    relation "x" does not exist',
        ' 3  2026-11-21 09:00:00+00  nothing_to_do      0         -  postgres@ci-1  citus-migrate.yaml  0123456789ab  0.1.0',
        '',
      ].join('\n'),
    );
  });

  it('says when nothing is recorded', () => expect(formatHistoryText([])).toBe('No applies recorded.\n'));
});

describe('history show text', () => {
  const detail = {
    id: 12,
    started_at: '2026-11-22 13:40:01.123456+00',
    finished_at: '2026-11-22 13:40:02.6+00',
    duration_ms: 1523,
    outcome: 'failed' as const,
    plan_fingerprint: 'fa5fa03a0a9a77aa',
    manifest_file: 'citus-migrate.yaml',
    manifest_sha256: '0123456789abcdef0123',
    step_count: 2,
    steps: [
      { index: 1, kind: 'create_table', summary: 'create table public.a (1 column)', hazards: [] },
      { index: 2, kind: 'drop_column', summary: 'drop column "x\x1b[8m" of public.a', hazards: ['drops_data'] },
    ],
    tool_version: '0.1.0',
    db_user: 'postgres',
    client_host: 'ci-1',
    error: { message: 'apply failed at step 2', sqlstate: '42883', step: 2, statement: 'ALTER TABLE a\n  DROP x' },
  };

  it('names outcome, times, manifest, error and every step, names escaped', () => {
    expect(formatApplyText(detail)).toBe(
      [
        'Apply #12: failed',
        '  started   2026-11-22 13:40:01+00',
        '  finished  2026-11-22 13:40:02+00 (1523 ms)',
        '  by        postgres@ci-1',
        '  manifest  citus-migrate.yaml (sha256 0123456789ab)',
        '  state     fa5fa03a0a9a',
        '  version   0.1.0',
        '  error     apply failed at step 2',
        '            SQLSTATE: 42883',
        '            at step 2',
        '            statement:',
        '              ALTER TABLE a',
        '                DROP x',
        '',
        'Steps (2):',
        '  1. create_table  create table public.a (1 column)',
        '  2. drop_column   drop column "x\\x1b[8m" of public.a  [drops_data]',
        '',
      ].join('\n'),
    );
  });

  it('with colour: the same text once the codes are taken out; codes only around our own words', () => {
    const coloured = formatApplyText(detail, COLOR);
    // eslint-disable-next-line no-control-regex -- the SGR codes are the point
    expect(coloured.replace(/\x1b\[\d+m/g, '')).toBe(formatApplyText(detail));
    expect(coloured).toContain('\x1b[31mfailed\x1b[39m');
    expect(coloured).toContain('\x1b[33m[drops_data]\x1b[39m');
    expect(coloured).not.toContain('\x1b[8m');
    expect(formatApplyText({ ...detail, outcome: 'applied', error: null }, COLOR)).toContain('\x1b[32mapplied\x1b[39m');
  });
});
