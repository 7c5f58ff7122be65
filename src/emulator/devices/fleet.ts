// Simulated devices (SPEC section 9): who a delivered message reaches, and each device's own inbox.
import type { Audience } from '../handler.js';
import type { StoredMessage } from '../store.js';
import { reaches, type Device } from './match.js';

/** What a device's inbox keeps of a message: enough to list it; the full message is in the request log. */
export interface InboxItem {
  message_id: string;
  app_id: string;
  received_at: string;
  type: number;
  title?: string;
  desc?: string;
}

/** Messages kept per device, newest first out of the bound. */
const INBOX_SIZE = 50;

export class Fleet {
  private readonly byId = new Map<string, number>();
  private readonly inboxes: InboxItem[][];

  constructor(readonly devices: readonly Device[]) {
    devices.forEach((device, index) => this.byId.set(device.client_id, index));
    this.inboxes = devices.map(() => []);
  }

  get size(): number {
    return this.devices.length;
  }

  /** Delivers a message to the devices it reaches; client IDs the fleet does not know are counted apart. */
  deliver(message: StoredMessage): Audience {
    const { notification } = message.body;
    const item: InboxItem = {
      message_id: message.message_id,
      app_id: message.app_id,
      received_at: message.received_at,
      type: message.body.type,
      ...(notification?.title !== undefined ? { title: notification.title } : {}),
      ...(notification?.desc !== undefined ? { desc: notification.desc } : {}),
    };
    return this.count(message, (index) => {
      const inbox = this.inboxes[index]!;
      inbox.push(item);
      if (inbox.length > INBOX_SIZE) inbox.shift();
    });
  }

  /** Whom a dry run would reach, counted by the same rules as {@link deliver}, without delivering. */
  wouldReach(message: StoredMessage): Audience {
    return this.count(message, () => {});
  }

  private count(message: StoredMessage, give: (index: number) => void): Audience {
    const { condition } = message.body;
    let reached = 0;
    let unknown = 0;
    const take = (index: number) => {
      give(index);
      reached += 1;
    };
    if (condition.type === 2) {
      // Listed IDs are looked up, not scanned for: a batch of 1000 against 100,000 devices stays cheap.
      for (const id of condition.client_ids ?? []) {
        const index = this.byId.get(id);
        if (index === undefined) unknown += 1;
        else take(index);
      }
    } else {
      this.devices.forEach((device, index) => {
        if (reaches(device, condition)) take(index);
      });
    }
    return { reached, unknown_client_ids: unknown, fleet_size: this.devices.length };
  }

  /** Devices, filtered by text in any field, from `offset`. */
  list(query: { q?: string; offset?: number; limit?: number } = {}): { devices: (Device & { inbox: number })[]; total: number; next_offset: number | null } {
    const needle = query.q?.trim().toLowerCase();
    const limit = Math.min(Math.max(1, query.limit ?? 50), 500);
    const out: (Device & { inbox: number })[] = [];
    let matched = 0;
    let next: number | null = null;
    for (let i = 0; i < this.devices.length; i++) {
      const device = this.devices[i]!;
      if (needle && !Object.values(device).some((value) => value.toLowerCase().includes(needle))) continue;
      matched += 1;
      if (matched <= (query.offset ?? 0)) continue;
      if (out.length === limit) {
        next = (query.offset ?? 0) + limit;
        break;
      }
      out.push({ ...device, inbox: this.inboxes[i]!.length });
    }
    return { devices: out, total: needle ? matched : this.devices.length, next_offset: next };
  }

  /** One device and its inbox, newest first. */
  device(clientId: string): { device: Device; inbox: InboxItem[] } | undefined {
    const index = this.byId.get(clientId);
    return index === undefined ? undefined : { device: this.devices[index]!, inbox: [...this.inboxes[index]!].reverse() };
  }

  clear(): void {
    for (const inbox of this.inboxes) inbox.length = 0;
  }
}
