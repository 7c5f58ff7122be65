// The options of `pushctl serve`, checked by one schema: every number in its range, the defaults filled.
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';
import { keptFile, pathOnly, wholeNumberFlag } from '../shared/check-options.js';
import { SERVE_DEFAULTS as D } from './defaults.js';

/** Upper bounds: beyond them a value is a typo, and some would allocate memory in proportion. */
const MAX_RATE = 1_000_000;
const MAX_CLIENT_IDS = 10_000_000;
const MAX_SEED = 2 ** 32 - 1;
const MAX_KEEP_MB = 16_384;
const MAX_FLEET = 1_000_000;

const text = z.optional(z.string());

export const serveOptionsSchema = z.object({
  host: z._default(z.string(), D.host),
  port: z._default(wholeNumberFlag('--port', 0, 65_535, '0 = any free port'), D.port),
  /** `id:secret` pairs from repeated `--app`. */
  app: z._default(z.array(z.string()), []),
  /** A JSON apps file (`{"apps":[{"id","secret","disabled"}]}` or a bare array). */
  apps: z.optional(pathOnly(z.string(), '--apps', 'the apps file', 'apps.json')),
  rate: z._default(wholeNumberFlag('--rate', 0, MAX_RATE, '0 = no limit'), D.rate),
  maxClientIds: z._default(wholeNumberFlag('--max-client-ids', 0, MAX_CLIENT_IDS, '0 = no limit'), D.maxClientIds),
  /** Append accepted messages to this JSON Lines file. */
  record: z.optional(keptFile(z.string(), '--record', 'the record', 'messages.jsonl')),
  chaos: text,
  chaosSeed: z.optional(wholeNumberFlag('--chaos-seed', 0, MAX_SEED)),
  /** Simulated devices from a file (JSON array or CSV), or a synthetic fleet of this many. */
  devices: z.optional(pathOnly(z.string(), '--devices', 'the devices', 'devices.csv')),
  fleet: z.optional(wholeNumberFlag('--fleet', 1, MAX_FLEET)),
  /** Memory of the emulator beyond Node's own, in MiB: what it keeps (messages, request log, devices) and the garbage collector's room. */
  keepMb: z.optional(wholeNumberFlag('--keep-mb', 1, MAX_KEEP_MB)),
  /** PEM files: serve https (both or neither). */
  tlsCert: text,
  tlsKey: text,
  verbose: z.optional(z.boolean()),
});

export type ServeOptions = z.infer<typeof serveOptionsSchema>;
