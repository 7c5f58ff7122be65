// Simulated devices (docs/behaviour.md#devices), held so that a fleet of a million costs little and a message's
// audience is counted without visiting each device: devices with the same attributes share one profile,
// and a synthetic fleet's client IDs are computed from their position rather than stored.
import type { PushMessage } from '../../message/types.js';
import { matchesTargeting, type Device } from './match.js';

/** Whom a delivered message reached among the simulated devices. */
export interface Audience {
  reached: number;
  unknown_client_ids: number;
  fleet_size: number;
  /** Client IDs: the languages of the devices reached, for the inbox's language of the message (docs/behaviour.md#variants). */
  languages?: string[];
}

/** A message to a thousand devices names at most this many of their languages. */
const MAX_LANGUAGES = 8;

/** Everything about a device but its client ID. */
export type Profile = Omit<Device, 'client_id'>;

/** The client IDs of a fleet, by position. */
export interface DeviceIds {
  at(index: number): string;
  indexOf(clientId: string): number | undefined;
}

export interface DeviceListing {
  devices: Device[];
  total: number;
  next_offset: number | null;
}

const MAX_PAGE = 500;

export class Fleet {
  private readonly profileSizes: number[];

  /** Device i has the client ID `ids.at(i)` and the attributes `profiles[profileOf[i]]`. */
  constructor(
    private readonly ids: DeviceIds,
    private readonly profiles: readonly Profile[],
    private readonly profileOf: Uint32Array,
  ) {
    this.profileSizes = profiles.map(() => 0);
    for (const index of profileOf) this.profileSizes[index]! += 1;
  }

  get size(): number {
    return this.profileOf.length;
  }

  /** Roughly what the fleet holds in memory beyond its client IDs, which a devices file's own array holds. */
  get bytes(): number {
    return this.profileOf.byteLength + this.profiles.length * 256;
  }

  /**
   * How many devices a message with this condition reaches, and how many listed client IDs are no device's.
   * Work in proportion to the listed IDs or the distinct profiles, never to the fleet.
   */
  audience(condition: PushMessage['condition']): Audience {
    let reached = 0;
    let unknown = 0;
    const languages = new Set<string>();
    if (condition.type === 2) {
      // The emulator takes client IDs as they were sent, repeats included (the limit counts them, as the
      // service's would), but a device listed twice is still one device reached.
      for (const id of new Set(condition.client_ids ?? [])) {
        const index = this.ids.indexOf(id);
        if (index === undefined) unknown += 1;
        else reached += 1;
        const language = index === undefined ? '' : this.profiles[this.profileOf[index]!]!.language;
        if (language !== '' && languages.size < MAX_LANGUAGES) languages.add(language);
      }
    } else if (condition.type === 0) {
      reached = this.size;
    } else {
      const targeting = condition.targeting ?? {};
      this.profiles.forEach((profile, i) => {
        if (matchesTargeting(profile as Device, targeting)) reached += this.profileSizes[i]!;
      });
    }
    return { reached, unknown_client_ids: unknown, fleet_size: this.size, ...(languages.size > 0 ? { languages: [...languages].sort() } : {}) };
  }

  deviceAt(index: number): Device {
    return { client_id: this.ids.at(index), ...this.profiles[this.profileOf[index]!]! };
  }

  find(clientId: string): Device | undefined {
    const index = this.ids.indexOf(clientId);
    return index === undefined ? undefined : this.deviceAt(index);
  }

  /** Devices, filtered by text in any field, from `offset`. */
  list(query: { q?: string; offset?: number; limit?: number } = {}): DeviceListing {
    const needle = query.q?.trim().toLowerCase();
    const offset = query.offset ?? 0;
    const limit = Math.min(Math.max(1, query.limit ?? 50), MAX_PAGE);
    // A profile's fields are tested once, not once per device that has them.
    const profileMatches = needle ? this.profiles.map((p) => Object.values(p).some((value) => value.toLowerCase().includes(needle))) : undefined;
    const devices: Device[] = [];
    let matched = 0;
    let next: number | null = null;
    for (let i = 0; i < this.size; i++) {
      if (profileMatches && !profileMatches[this.profileOf[i]!] && !this.ids.at(i).toLowerCase().includes(needle!)) continue;
      matched += 1;
      if (matched <= offset) continue;
      if (devices.length === limit) {
        next = offset + limit;
        // The total of a filtered list needs the whole scan; an unfiltered one is the fleet's size.
        if (!needle) break;
        continue;
      }
      devices.push(this.deviceAt(i));
    }
    return { devices, total: needle ? matched : this.size, next_offset: next };
  }
}

/** A fleet of these devices (a devices file's); devices with equal attributes share one profile. */
export function fleetOf(devices: readonly Device[]): Fleet {
  const byId = new Map<string, number>();
  const seen = new Map<string, number>();
  const profiles: Profile[] = [];
  const profileOf = new Uint32Array(devices.length);
  devices.forEach((device, index) => {
    byId.set(device.client_id, index);
    const profile: Profile = { country: device.country, language: device.language, brand: device.brand, model: device.model, os_version: device.os_version, app_version: device.app_version };
    const key = Object.values(profile).join('\n');
    let at = seen.get(key);
    if (at === undefined) {
      at = profiles.push(profile) - 1;
      seen.set(key, at);
    }
    profileOf[index] = at;
  });
  return new Fleet({ at: (index) => devices[index]!.client_id, indexOf: (id) => byId.get(id) }, profiles, profileOf);
}
