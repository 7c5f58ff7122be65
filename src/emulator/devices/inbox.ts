// A device's inbox, read from the messages the emulator keeps rather than copied into each device: a push
// to a million devices stores the message once, and the inboxes live within what `--keep-mb` allows.
import type { StoredMessage } from '../store.js';
import { reaches, type Device } from './match.js';

/** What an inbox lists of a message; the full message is in the request log and the message list. */
export interface InboxItem {
  message_id: string;
  app_id: string;
  received_at: string;
  type: number;
  title?: string;
  desc?: string;
  /** The message's language (docs/behaviour.md#variants): which variant the device got. */
  languages?: string[];
}

/** Messages listed per device, newest first. */
const INBOX_SIZE = 50;

/** The newest delivered messages (newest first) that reach this device. */
export function inboxOf(device: Device, newestFirst: Iterable<StoredMessage>): InboxItem[] {
  const items: InboxItem[] = [];
  for (const message of newestFirst) {
    if (items.length === INBOX_SIZE) break;
    if (message.delivered && reaches(device, message.body.condition)) items.push(itemOf(message));
  }
  return items;
}

/**
 * Each device's inbox size (at most INBOX_SIZE) and its newest message (the variant it got last: title and language), in one
 * pass over the kept messages.
 */
export function inboxSummaries(devices: readonly Device[], newestFirst: Iterable<StoredMessage>): { counts: number[]; newest: (InboxItem | undefined)[] } {
  const counts = devices.map(() => 0);
  const newest: (InboxItem | undefined)[] = devices.map(() => undefined);
  const byId = new Map(devices.map((device, i) => [device.client_id, i]));
  let current: StoredMessage | undefined;
  const add = (i: number) => {
    if (counts[i] === 0) newest[i] = itemOf(current!);
    counts[i] = Math.min(INBOX_SIZE, counts[i]! + 1);
  };
  for (const message of newestFirst) {
    if (counts.every((n) => n === INBOX_SIZE)) break;
    if (!message.delivered) continue;
    current = message;
    const condition = message.body.condition;
    // Listed IDs are looked up among the few devices asked about, not each device searched in the list.
    if (condition.type === 2) {
      for (const id of condition.client_ids ?? []) {
        const i = byId.get(id);
        if (i !== undefined) add(i);
      }
    } else {
      devices.forEach((device, i) => reaches(device, condition) && add(i));
    }
  }
  return { counts, newest };
}

function itemOf(message: StoredMessage): InboxItem {
  const notification = message.body.notification;
  return {
    message_id: message.message_id,
    app_id: message.app_id,
    received_at: message.received_at,
    type: message.body.type,
    ...(notification?.title !== undefined ? { title: notification.title } : {}),
    ...(notification?.desc !== undefined ? { desc: notification.desc } : {}),
    ...(message.languages ? { languages: message.languages } : {}),
  };
}
