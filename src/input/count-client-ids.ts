// How many recipients a client-ID file names, read the way a send reads it (`pushctl config` sizes an
// audience's file with it): a CSV's client_id column without its header, a report's or journal's
// recipients left, each ID once.
import { createReadStream } from 'node:fs';
import { dirname } from 'node:path';
import { readClientIds } from './read-client-ids.js';
import { resendsSince } from './resends-since.js';

export async function countClientIds(path: string, env: Record<string, string | undefined>): Promise<number> {
  const list = await readClientIds(createReadStream(path, { highWaterMark: 1 << 20 }), undefined, { laterWords: resendsSince(path, dirname(path), env) });
  return list.ids.length;
}
