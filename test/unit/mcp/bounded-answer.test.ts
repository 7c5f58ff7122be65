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

describe('boundDocument, when the first cut is not enough', () => {
  it('keeps fewer items and characters until the document fits, and still lists every cut', () => {
    // An inbox of 1000 messages, each 300 client IDs: 100 messages of 100 IDs are still ~1 MB.
    const ids = Array.from({ length: 300 }, (_, i) => `device-${String(i).padStart(6, '0')}`);
    const messages = Array.from({ length: 1000 }, (_, i) => ({ message_id: `m${i}`, body: { condition: { type: 2, client_ids: ids } } }));
    const { document, elided } = boundDocument({ ok: true, messages });
    expect(JSON.stringify(document).length).toBeLessThanOrEqual(ANSWER_BUDGET);
    const kept = document.messages as { body: { condition: { client_ids: string[] } } }[];
    expect(elided[0]).toEqual({ path: 'messages', shown: kept.length, total: 1000 });
    expect(elided.slice(1)).toEqual(kept.map((_, i) => ({ path: `messages[${i}].body.condition.client_ids`, shown: kept[i]!.body.condition.client_ids.length, total: 300 })));
    expect(kept.length).toBeGreaterThan(0);
  });
});

describe('boundText', () => {
  it('cuts a long text at a line end and says how much is not shown', () => {
    const text = 'line\n'.repeat(ANSWER_BUDGET / 2);
    const bounded = boundText(text, []);
    expect(bounded.length).toBeLessThan(ANSWER_BUDGET + 200);
    expect(bounded).toMatch(/line\n… cut: this answer is bounded to 40 KiB of text; \d+ more characters are not shown\n$/);
  });

  it('names the lists cut from the structured answer', () => {
    expect(boundText('valid\n', [{ path: 'body.condition.client_ids', shown: 100, total: 600_000 }])).toBe('valid\ncut: this answer is bounded (structuredContent: body.condition.client_ids shows 100 of 600000)\n');
  });
});
