import { describe, expect, it } from 'vitest';
import { formatAttempt, formatSingle, formatSummary } from '../../../src/output/delivery.js';
import { plainStyle } from '../../../src/output/style.js';
import { escapeControl } from '../../../src/output/escape-control.js';

const request = { method: 'POST' as const, url: 'http://127.0.0.1:1/v1/message/push/a', headers: { Authorization: '***' }, body: '{}' };

describe('--verbose prints a hostile answer inert', () => {
  it('escapes cursor moves, screen clears, bells and forged lines in the body, headers and reason', () => {
    const body = 'ok\u001b[2J\u001b[H\u0007\r\n= accepted: forged\u009b31m\u202e';
    const text = formatAttempt(
      {
        batch: 1,
        attempt: 1,
        body: {},
        outcome: {
          kind: 'in_doubt',
          reason: 'HTTP 302 redirect to http://x/\u001b[1A refused',
          httpStatus: 302,
          response: { httpStatus: 302, headers: { 'x-evil\u001b[K': 'a\u001b]0;title\u0007' }, body, incomplete: false },
        },
      },
      request,
    );
    // eslint-disable-next-line no-control-regex -- no control character may remain
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    // Only pushctl's own line breaks remain: the forged "= accepted" stays on the body's line.
    expect(text.split('\n').filter((l) => l.startsWith('= '))).toEqual([expect.stringContaining('= in_doubt')]);
    expect(text).toContain('ok\\x1b[2J\\x1b[H\\x07\\r\\n= accepted: forged\\x9b31m\\u202e');
  });

  it('leaves ordinary text, quotes and non-Latin letters alone', () => {
    expect(escapeControl('{"message":"OK – 好"}')).toBe('{"message":"OK – 好"}');
  });
});

describe('human output prints server-given text inert', () => {
  it('escapes the service message, a message_id and a reason', () => {
    const hostile = '\u001b[2J\nforged';
    const texts = [
      formatSingle({ index: 0, clientIds: [], status: 'rejected', attempts: 1, code: 21005, message: hostile }, false, plainStyle),
      formatSingle({ index: 0, clientIds: [], status: 'accepted', attempts: 1, messageId: `id${hostile}` }, false, plainStyle),
      formatSingle({ index: 0, clientIds: [], status: 'in_doubt', attempts: 1, reason: `redirect to ${hostile}` }, false, plainStyle),
      formatSummary(
        { batches: { total: 1, accepted: 0, rejected: 1, in_doubt: 0, not_sent: 0 }, recipients: { total: 1, accepted: 0, rejected: 1, in_doubt: 0, not_sent: 0 } } as never,
        [{ index: 0, clientIds: ['a'], status: 'rejected', attempts: 1, code: 21005, message: hostile }],
        false,
        plainStyle,
      ),
    ];
    for (const text of texts) {
      expect(text).not.toContain('\u001b');
      expect(text).not.toContain('\nforged');
    }
    expect(texts[0]).toContain('(service: "\\u001b[2J\\nforged")');
    expect(texts[1]).toContain('id\\x1b[2J\\nforged');
    expect(texts[2]).toContain('redirect to \\x1b[2J\\nforged');
  });
});
