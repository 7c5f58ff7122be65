// The emulator judged by a table of its own, written by hand from the service's interface document and
// docs/behaviour.md#service-codes, never from src/message/: each row is a raw HTTP request and the body
// `status` the service answers it with. The other emulator tests send what pushctl's validator builds, so a
// rule the validator and the emulator got wrong together would pass them; a row here catches it.
// Nothing from src/ is imported but the emulator itself, which is started as a user starts it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';

const SECRET = 'case-secret';
const base = { type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'Hello', desc: 'World' } };
const ids = (n: number) => Array.from({ length: n }, (_, i) => `client-${i}`);
/** A `data` block whose JSON text is exactly `bytes` bytes long: `{"k":"…"}` is 8 bytes around the value. */
const dataOfBytes = (bytes: number) => ({ k: 'x'.repeat(bytes - 8) });

interface Case {
  /** What the row checks, and where the expectation comes from. */
  name: string;
  /** The body as sent: an object is sent as its JSON text, a string as it is. */
  body: unknown;
  /** The path below /v1/message/push/ (the app ID); default `app`. */
  app?: string;
  /** The Authorization header; null sends none. */
  authorization?: string | null;
  /** The body `status` the service answers with. */
  status: number;
}

// "rule N" is a rule of the interface document's section 4; "field" its section 2's field table; "errors"
// its section 7; "vendor" a fact of the vendor's pages that docs/behaviour.md#the-service records.
const CASES: Case[] = [
  // Accepted: 200 with a message_id.
  { name: 'a notification to all devices (rule 2)', body: base, status: 200 },
  { name: 'a data message to client IDs (rule 4)', body: { type: 2, time_to_live: 60, condition: { type: 2, client_ids: ['a', 'b'] }, data: { action: 'sync' } }, status: 200 },
  { name: 'condition targeting with every criterion (rule 3)', body: { ...base, condition: { type: 1, targeting: { country: ['US', 'GB'], language: ['en', 'zh-CN'], brand: ['SAMSUNG'], model: ['SM-G991B'], os_version: ['33'], app_version: ['2.1.0'] } } }, status: 200 },
  { name: 'condition targeting with empty lists: no restriction (rule 3)', body: { ...base, condition: { type: 1, targeting: { country: [], language: [] } } }, status: 200 },
  { name: 'a dry run (rule 5)', body: { ...base, dry_run: true }, status: 200 },
  { name: 'button style with icon and button text (field notification_type 3)', body: { ...base, notification: { title: 'Hi', notification_type: 3, icon: 'https://example.com/i.png', button_text: 'Open' } }, status: 200 },
  { name: 'system style with a #RRGGBB small icon colour (field small_icon_color)', body: { ...base, notification: { title: 'Hi', notification_type: 1, small_icon: 'ic', small_icon_color: '#1A73E8' } }, status: 200 },
  { name: 'open a link (field open_type "2")', body: { ...base, notification: { title: 'Hi', open_type: '2', open_content: 'https://example.com/sale' } }, status: 200 },
  { name: 'data of exactly 2 KB (limits: at most 2 KB)', body: { type: 2, time_to_live: 60, condition: { type: 0 }, data: dataOfBytes(2048) }, status: 200 },
  { name: '1000 client IDs (vendor: at most 1000 per request)', body: { ...base, condition: { type: 2, client_ids: ids(1000) } }, status: 200 },

  // 21005 message illegal (errors).
  { name: 'type 0, as the sample request writes it (field type: 1 or 2)', body: { ...base, type: 0 }, status: 21005 },
  { name: 'type 3 (field type: 1 or 2)', body: { ...base, type: 3 }, status: 21005 },
  { name: 'no type (rule 1)', body: { time_to_live: 3600, condition: { type: 0 }, notification: { title: 'Hi' } }, status: 21005 },
  { name: 'no time_to_live (rule 1)', body: { type: 1, condition: { type: 0 }, notification: { title: 'Hi' } }, status: 21005 },
  { name: 'no condition (rule 1)', body: { type: 1, time_to_live: 3600, notification: { title: 'Hi' } }, status: 21005 },
  { name: 'condition.type 3 (field condition.type: 0, 1 or 2)', body: { ...base, condition: { type: 3 } }, status: 21005 },
  { name: 'condition.type 1 without targeting (rule 3)', body: { ...base, condition: { type: 1 } }, status: 21005 },
  { name: 'condition.type 2 without client_ids (rule 4)', body: { ...base, condition: { type: 2 } }, status: 21005 },
  { name: 'a three-letter country (field country: two letters, ISO 3166-1)', body: { ...base, condition: { type: 1, targeting: { country: ['USA'] } } }, status: 21005 },
  { name: 'a small icon colour by name (field small_icon_color: #RRGGBB)', body: { ...base, notification: { title: 'Hi', small_icon_color: 'red' } }, status: 21005 },
  { name: 'notification_type 2 (field notification_type: 1 or 3)', body: { ...base, notification: { title: 'Hi', notification_type: 2 } }, status: 21005 },
  { name: 'open_type "3" (field open_type: 1 or 2)', body: { ...base, notification: { title: 'Hi', open_type: '3' } }, status: 21005 },
  { name: 'a data value that is an object (field data: string values)', body: { type: 2, time_to_live: 60, condition: { type: 0 }, data: { nested: { a: 'b' } } }, status: 21005 },
  { name: 'data one byte over 2 KB (limits: at most 2 KB)', body: { type: 2, time_to_live: 60, condition: { type: 0 }, data: dataOfBytes(2049) }, status: 21005 },
  { name: 'a body that is not JSON (wire format: JSON)', body: 'type=1&time_to_live=3600', status: 21005 },
  { name: 'a JSON array for a body (request body: a JSON object)', body: '[]', status: 21005 },
  { name: 'time_to_live as text (field time_to_live: int)', body: { ...base, time_to_live: 'a day' }, status: 21005 },

  // 21006 client ID too much (errors; vendor: at most 1000 per request).
  { name: '1001 client IDs', body: { ...base, condition: { type: 2, client_ids: ids(1001) } }, status: 21006 },

  // The credentials (vendor codes; authentication: the raw secret in Authorization).
  { name: 'no app ID in the path (vendor 21001)', app: '', body: base, status: 21001 },
  { name: 'an app ID the service does not know (vendor 21002)', app: 'no-such-app', body: base, status: 21002 },
  { name: 'no Authorization header (vendor 21003)', authorization: null, body: base, status: 21003 },
  { name: 'the wrong secret (vendor 21004)', authorization: 'not-the-secret', body: base, status: 21004 },
  { name: 'the secret behind a scheme word: the header carries the raw secret (authentication)', authorization: `Bearer ${SECRET}`, body: base, status: 21004 },

  // 21007 app push SDK disabled (errors).
  { name: 'an app whose push is disabled', app: 'off-app', body: base, status: 21007 },
];

let emulator: Emulator;

beforeAll(async () => {
  emulator = await createEmulator({
    port: 0,
    rate: 0,
    apps: [
      { id: 'app', secret: SECRET },
      { id: 'off-app', secret: SECRET, disabled: true },
    ],
  });
});
afterAll(() => emulator.close());

interface Answer {
  http: number;
  body: { status?: unknown; message?: unknown; result?: { message_id?: unknown } };
}

/** One push as raw HTTP: the path, the header and the body exactly as the row gives them. */
async function push(target: Emulator, row: Pick<Case, 'app' | 'authorization' | 'body'>): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const authorization = row.authorization === undefined ? SECRET : row.authorization;
  if (authorization !== null) headers.authorization = authorization;
  const response = await fetch(`${target.url}/v1/message/push/${row.app ?? 'app'}`, {
    method: 'POST',
    headers,
    body: typeof row.body === 'string' ? row.body : JSON.stringify(row.body),
  });
  return { http: response.status, body: (await response.json()) as Answer['body'] };
}

describe('the emulator answers as the interface document says (a table of its own)', () => {
  it('has a row for every status the service answers', () => {
    expect(new Set(CASES.map((c) => c.status))).toEqual(new Set([200, 21001, 21002, 21003, 21004, 21005, 21006, 21007]));
  });

  it.each(CASES)('$name → $status', async (row) => {
    const answer = await push(emulator, row);
    expect(answer.body.status, JSON.stringify(answer.body).slice(0, 300)).toBe(row.status);
    // The response body of the document's section 2: status and a text message; a message_id on success.
    expect(typeof answer.body.message).toBe('string');
    if (row.status === 200) expect(typeof answer.body.result?.message_id).toBe('string');
    else expect(answer.body.result?.message_id).toBeUndefined();
  });

  it('a dry run is answered and never delivered (rule 5)', async () => {
    const answer = await push(emulator, { body: { ...base, dry_run: true, notification: { title: 'dry-run probe' } } });
    expect(answer.body.status).toBe(200);
    const kept = emulator.messages('app').find((m) => m.message_id === answer.body.result?.message_id);
    expect(kept).toMatchObject({ dry_run: true, delivered: false });
  });

  it('over the rate, the service answers 22001 (vendor: 50 requests a second)', async () => {
    // A limit of one request a second: of two requests sent together, one is over it.
    const limited = await createEmulator({ port: 0, rate: 1, apps: [{ id: 'app', secret: SECRET }] });
    try {
      const answers = await Promise.all([push(limited, { body: base }), push(limited, { body: base })]);
      expect(answers.map((a) => a.body.status).sort()).toEqual([200, 22001]);
    } finally {
      await limited.close();
    }
  });
});
