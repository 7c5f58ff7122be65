// A journal's message must agree with its plan (docs/behaviour.md#trust). A run to a list of client IDs keeps
// them in its batch records and `"condition": {"type": 2}` in every message of its header; an audience run
// (every device, a condition) has batch records without IDs. A header edited to address an audience over a
// plan of IDs would turn a resend of two recipients into a push to every device: it is no run to read.
import { recipientCount, type BatchResult } from '../client/send-batches.js';
import type { HeaderRecord } from './records.js';

/** The header's messages by the field that names each: the base message, and each variant's. */
function messagesOf(header: HeaderRecord): [string, object][] {
  return [['message', header.message], ...Object.entries(header.variants ?? {}).map(([tag, message]): [string, object] => [`variants.${tag}`, message])];
}

/** What in the header disagrees with its batch records, in words naming the field; undefined when they agree. */
export function planProblem(header: HeaderRecord, results: readonly BatchResult[]): string | undefined {
  if (!results.some((r) => recipientCount(r) > 0)) return undefined;
  for (const [field, message] of messagesOf(header)) {
    // A condition without a type addresses no one: the service refuses it, so it widens nothing.
    const type = (message as { condition?: { type?: unknown } }).condition?.type;
    if (type !== undefined && type !== 2) {
      return `its header's ${field}.condition addresses ${type === 0 ? 'every device' : type === 1 ? 'the devices of a condition' : `type ${JSON.stringify(type)}`}, but its batch records list client IDs`;
    }
  }
  return undefined;
}
