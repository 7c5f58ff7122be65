// How big each named audience is, for `pushctl config`: a count of client IDs, the conditions, or every
// device. A client-ID file is counted by the reader a send uses, so the figure is the recipients it reaches.
import { audienceOptions } from './audiences.js';
import type { Audience } from './schema.js';

/** One audience as `pushctl config` shows it. */
export interface AudienceSize {
  name: string;
  kind: 'all' | 'client_ids' | 'client_ids_file' | 'targeting';
  /** Distinct client IDs, as a send reads them; null when the file cannot be read. */
  clientIds?: number | null;
  /** The client-ID file, resolved against the config file's directory. */
  file?: string;
  /** Why the file could not be counted. */
  problem?: string;
  targeting?: Record<string, string[]>;
}

/**
 * How many distinct client IDs a send would read from `file` (a list, a CSV's client_id column, the
 * recipients left in a report or journal). The reader lives with the input, a floor above settings.
 */
export type CountClientIds = (file: string) => Promise<number>;

async function sizeOf(name: string, audience: Audience, configFile: string, count: CountClientIds): Promise<AudienceSize> {
  if (audience === 'all') return { name, kind: 'all' };
  if ('client_ids' in audience) return { name, kind: 'client_ids', clientIds: new Set(audience.client_ids.map((id) => id.trim())).size };
  if ('targeting' in audience) return { name, kind: 'targeting', targeting: { ...audience.targeting } as Record<string, string[]> };
  const file = audienceOptions(name, { [name]: audience }, configFile).clientIdsFile!;
  try {
    return { name, kind: 'client_ids_file', file, clientIds: await count(file) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A file that is read but is no list of IDs (a control character, another encoding) says why, as a send would.
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : code === undefined && error instanceof Error ? error.message : String(code ?? error);
    return { name, kind: 'client_ids_file', file, clientIds: null, problem: why };
  }
}

/** Every audience with its size, in the config's order. */
export function audienceSizes(audiences: Record<string, Audience>, configFile: string, count: CountClientIds): Promise<AudienceSize[]> {
  return Promise.all(Object.entries(audiences).map(([name, audience]) => sizeOf(name, audience, configFile, count)));
}
