import type { AttemptOutcome } from '../../../src/client/outcome.js';
import type { PushSender } from '../../../src/client/push-client.js';

export const accepted = (messageId = 'm'): AttemptOutcome => ({ kind: 'accepted', messageId, httpStatus: 200 });
export const rejected = (code = 21005): AttemptOutcome => ({ kind: 'rejected', code, message: 'no', httpStatus: 200 });
export const ambiguous = (): AttemptOutcome => ({ kind: 'in_doubt', reason: 'HTTP 502', httpStatus: 502 });
export const retryable = (code?: number): AttemptOutcome =>
  code === undefined ? { kind: 'retryable', reason: 'could not connect (ECONNREFUSED)' } : { kind: 'retryable', reason: 'rate limited', code, message: 'too fast' };

/** A sender that answers from a function of the body and the call number, recording every body. */
export class FakeSender implements PushSender {
  readonly bodies: Record<string, unknown>[] = [];
  constructor(private readonly answer: (body: Record<string, unknown>, call: number) => AttemptOutcome | Promise<AttemptOutcome>) {}

  async send(body: object): Promise<AttemptOutcome> {
    this.bodies.push(body as Record<string, unknown>);
    return this.answer(body as Record<string, unknown>, this.bodies.length - 1);
  }
}

export const idsOf = (body: Record<string, unknown>): string[] => (body['condition'] as { client_ids?: string[] }).client_ids ?? [];

/** A sender that accepts after `wait()` and counts the most requests it had in flight at once (`peak()`). */
export function peakCountingSender(wait: () => Promise<unknown> = () => new Promise((resolve) => setImmediate(resolve))): { client: FakeSender; peak: () => number } {
  let inFlight = 0;
  let peak = 0;
  const client = new FakeSender(async () => {
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    await wait();
    inFlight -= 1;
    return accepted();
  });
  return { client, peak: () => peak };
}
