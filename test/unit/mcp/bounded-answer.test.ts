// An answer is the CLI's document untouched within the budget, and cut with a record of each cut beyond it.
import { describe, expect, it } from 'vitest';
import { ANSWER_BUDGET, boundDocument, boundText, LIST_SHOWN, STRING_SHOWN } from '../../../src/commands/mcp/bounded-answer.js';

describe('boundDocument', () => {
  it('leaves an answer within the budget as it is, long lists included', () => {
    const document = { ok: true, message_ids: Array.from({ length: 500 }, (_, i) => `m${i}`) };
    expect(boundDocument(document)).toEqual({ document, elided: [] });
  });

  it('cuts every long list of a larger answer to its first items, and says where', () => {
    const ids = Array.from({ length: 200_000 }, (_, i) => `id-${i}`);
    const { document, elided } = boundDocument({ ok: true, messages: [{ body: { client_ids: ids } }], batches: ids.slice(0, 150) });
    expect(elided).toEqual([
      { path: 'messages[0].body.client_ids', shown: LIST_SHOWN, total: 200_000 },
      { path: 'batches', shown: LIST_SHOWN, total: 150 },
    ]);
    expect(document).toMatchObject({ ok: true, batches: ids.slice(0, LIST_SHOWN), elided });
  });

  it('cuts long strings too when cutting lists is not enough', () => {
    const { document, elided } = boundDocument({ body: { notification: { title: 'x'.repeat(ANSWER_BUDGET + 10) } } });
    expect(elided).toEqual([{ path: 'body.notification.title', shown: STRING_SHOWN, total: ANSWER_BUDGET + 10 }]);
    expect(JSON.stringify(document).length).toBeLessThan(ANSWER_BUDGET);
  });
});

describe('boundText', () => {
  it('cuts a long text at a line end and says how much is not shown', () => {
    const text = 'line\n'.repeat(ANSWER_BUDGET / 2);
    const bounded = boundText(text, []);
    expect(bounded.length).toBeLessThan(ANSWER_BUDGET + 200);
    expect(bounded).toMatch(/line\n… cut: this answer is bounded to 1024 KiB of text; \d+ more characters are not shown\n$/);
  });

  it('names the lists cut from the structured answer', () => {
    expect(boundText('valid\n', [{ path: 'body.condition.client_ids', shown: 100, total: 600_000 }])).toBe('valid\ncut: this answer is bounded (structuredContent: body.condition.client_ids shows 100 of 600000)\n');
  });
});
