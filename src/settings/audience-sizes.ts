// How big each named audience is, for `pushctl config`: a count of client IDs, the conditions, or every
// device. A client-ID file is counted as it streams past, so a list of millions is never held whole.
import { createReadStream } from 'node:fs';
import { audienceOptions } from './audiences.js';
import type { Audience } from './schema.js';

/** One audience as `pushctl config` shows it. */
export interface AudienceSize {
  name: string;
  kind: 'all' | 'client_ids' | 'client_ids_file' | 'targeting';
  /** Client IDs (lines with an ID; repeats are dropped only when sending); null when the file cannot be read. */
  clientIds?: number | null;
  /** The client-ID file, resolved against the config file's directory. */
  file?: string;
  /** Why the file could not be counted. */
  problem?: string;
  targeting?: Record<string, string[]>;
}

const NEWLINE = 0x0a;
const isBlank = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0d;

/** The lines of a file holding more than white space, read in chunks. */
export async function countIdLines(file: string): Promise<number> {
  let count = 0;
  let content = false;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    for (const byte of chunk) {
      if (byte === NEWLINE) {
        if (content) count++;
        content = false;
      } else if (!content && !isBlank(byte)) content = true;
    }
  }
  return content ? count + 1 : count;
}

async function sizeOf(name: string, audience: Audience, configFile: string): Promise<AudienceSize> {
  if (audience === 'all') return { name, kind: 'all' };
  if ('client_ids' in audience) return { name, kind: 'client_ids', clientIds: new Set(audience.client_ids.map((id) => id.trim())).size };
  if ('targeting' in audience) return { name, kind: 'targeting', targeting: { ...audience.targeting } as Record<string, string[]> };
  const file = audienceOptions(name, { [name]: audience }, configFile).clientIdsFile!;
  try {
    return { name, kind: 'client_ids_file', file, clientIds: await countIdLines(file) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : String(code ?? error);
    return { name, kind: 'client_ids_file', file, clientIds: null, problem: why };
  }
}

/** Every audience with its size, in the config's order. */
export function audienceSizes(audiences: Record<string, Audience>, configFile: string): Promise<AudienceSize[]> {
  return Promise.all(Object.entries(audiences).map(([name, audience]) => sizeOf(name, audience, configFile)));
}
