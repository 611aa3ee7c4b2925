import { describe, expect, it } from 'vitest';
import { formatHistoryText } from '../../src/format/history-text.js';

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
