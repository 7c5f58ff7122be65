// The emulator and pushctl's own validator judged by a table of their own: test/fixtures/interface-cases.json,
// written by hand from the service's interface document and docs/behaviour.md#the-service, never from
// src/message/. Each row is a literal HTTP request and the answer the service gives it. The other emulator
// tests send what pushctl's validator builds, and the emulator judges with that same validator, so a rule
// the two got wrong together would pass them all; a row here catches it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { validateMessage } from '../../../src/message/validate.js';

interface Case {
  /** What the row checks. */
  name: string;
  /** Where the expectation comes from: "doc §N" is the interface document's section N. */
  source: string;
  request: {
    /** The path below /v1/message/push/; default `app`. */
    app?: string;
    /** The Authorization header; default the app's secret, null sends none. */
    authorization?: string | null;
    /** Sent as its JSON text. */
    body?: unknown;
    /** Sent as it is (a body that is not a JSON object). */
    body_text?: string;
  };
  expect: { http: number; status: number };
  /** What pushctl's validator does with the body before sending; absent where the body is not what is judged. */
  client?: 'sends' | 'converts' | 'refuses';
}

interface Table {
  apps: { id: string; secret: string; disabled?: boolean }[];
  cases: Case[];
}

const table = JSON.parse(readFileSync(new URL('../../fixtures/interface-cases.json', import.meta.url), 'utf8')) as Table;
const SECRET = table.apps[0]!.secret;
const bodyCases = table.cases.filter((c) => c.client !== undefined);

let emulator: Emulator;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0, apps: table.apps });
});
afterAll(() => emulator.close());

interface Answer {
  http: number;
  body: { status?: unknown; message?: unknown; result?: { message_id?: unknown } };
}

/** One push as raw HTTP: the path, the header and the body exactly as the row gives them. */
async function push(target: Emulator, request: Case['request']): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const authorization = request.authorization === undefined ? SECRET : request.authorization;
  if (authorization !== null) headers.authorization = authorization;
  const response = await fetch(`${target.url}/v1/message/push/${request.app ?? 'app'}`, {
    method: 'POST',
    headers,
    body: request.body_text ?? JSON.stringify(request.body),
  });
  return { http: response.status, body: (await response.json()) as Answer['body'] };
}

describe('the emulator answers as the interface document says (test/fixtures/interface-cases.json)', () => {
  it('has a row for every status the service answers, and rows both ways for the client', () => {
    expect(new Set(table.cases.map((c) => c.expect.status))).toEqual(new Set([200, 21001, 21002, 21003, 21004, 21005, 21006, 21007]));
    expect(new Set(bodyCases.map((c) => c.client))).toEqual(new Set(['sends', 'converts', 'refuses']));
  });

  it.each(table.cases)('$name → $expect.status ($source)', async (row) => {
    const answer = await push(emulator, row.request);
    expect(answer.http).toBe(row.expect.http);
    expect(answer.body.status, JSON.stringify(answer.body).slice(0, 300)).toBe(row.expect.status);
    // The response body of the document's section 2: status and a text message; a message_id on success.
    expect(typeof answer.body.message).toBe('string');
    if (row.expect.status === 200) expect(typeof answer.body.result?.message_id).toBe('string');
    else expect(answer.body.result?.message_id).toBeUndefined();
  });

  it('a dry run is answered and never delivered (doc §4 rule 5)', async () => {
    const answer = await push(emulator, { body: { type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'dry-run probe' }, dry_run: true } });
    expect(answer.body.status).toBe(200);
    const kept = emulator.messages('app').find((m) => m.message_id === answer.body.result?.message_id);
    expect(kept).toMatchObject({ dry_run: true, delivered: false });
  });

  it('over the rate, the service answers 22001 (behaviour.md#the-service: 50 requests a second)', async () => {
    // A limit of one request a second: of two requests sent together, one is over it.
    const limited = await createEmulator({ port: 0, rate: 1, apps: table.apps });
    const body = { type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi' } };
    try {
      const answers = await Promise.all([push(limited, { body }), push(limited, { body })]);
      expect(answers.map((a) => a.body.status).sort()).toEqual([200, 22001]);
    } finally {
      await limited.close();
    }
  });
});

// The same table through the validator `validate`, `send` and `dry-run` run before anything is sent. A body
// the service refuses must be refused here, or converted into one the service accepts: pushctl never sends
// what the document says is illegal.
describe("pushctl's validator on the same table, before sending", () => {
  it.each(bodyCases)('$name: $client', async (row) => {
    const result = validateMessage(row.request.body);
    if (row.client === 'refuses') {
      expect(result.errors.length, 'refused before sending').toBeGreaterThan(0);
      expect(result.body).toBeUndefined();
      return;
    }
    expect(result.errors, 'accepted before sending').toEqual([]);
    if (row.client === 'sends') {
      expect(result.body, 'sent as written').toEqual(row.request.body);
      return;
    }
    // Converted: what goes out differs from what was written, and is what the service accepts.
    expect(result.body).not.toEqual(row.request.body);
    const answer = await push(emulator, { body: result.body });
    expect(answer.body.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
  });

  it('refuses or converts every body the service refuses as illegal, and sends as written only what it accepts', () => {
    const illegal = bodyCases.filter((c) => c.expect.status === 21005);
    expect(illegal.filter((c) => c.client === 'sends').map((c) => c.name)).toEqual([]);
    const accepted = bodyCases.filter((c) => c.expect.status === 200);
    expect(accepted.filter((c) => c.client === 'refuses').map((c) => c.name)).toEqual([]);
  });
});
