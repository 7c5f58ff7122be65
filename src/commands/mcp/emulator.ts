// Whether the server's base URL is an emulator (`pushctl serve`), and what it has kept. The emulator
// answers `GET /v1/emulator/health` and lists messages at `GET /v1/emulator/messages`; a vendor region
// is never asked, and no secret goes with these requests (the emulator's inbox needs none).
import type { Ctx } from '../../context.js';
import { configError } from '../../errors.js';
import { checkBaseUrl } from '../../settings/check-base-url.js';
import { loadSettings, shareAppSecret, type SettingsOptions } from '../../settings/load-settings.js';
import { regionUrls } from '../../settings/regions.js';
import type { SecretScrubber } from '../../output/redact.js';

/** An emulator that did not answer by then is treated as none: listing the tools must not hang on it. */
const PROBE_TIMEOUT_MS = 1500;

export interface Destination {
  baseUrl: string;
  appId: string | undefined;
}

/** The base URL and app ID a call would use (flags > env > profile > file > defaults, as in the CLI). */
export async function destinationOf(options: SettingsOptions, ctx: Ctx, scrubber: SecretScrubber): Promise<Destination> {
  const loaded = await loadSettings(options, ctx);
  // Known from here on, so no result or log line of this server can hold it.
  shareAppSecret(loaded, scrubber);
  return { baseUrl: checkBaseUrl(loaded.settings.baseUrl, { insecure: loaded.settings.insecure, source: loaded.sources.baseUrl }), appId: loaded.settings.appId };
}

const endpoint = (baseUrl: string, path: string) => new URL(path, `${baseUrl}/`);

/** A vendor region's host: never asked for an emulator's routes. */
const isRegionHost = (baseUrl: string) => Object.values(regionUrls).some((region) => new URL(region).host === new URL(baseUrl).host);

/** True when the base URL answers as an emulator does. */
export async function isEmulator(baseUrl: string): Promise<boolean> {
  if (isRegionHost(baseUrl)) return false;
  try {
    const answer = await fetch(endpoint(baseUrl, 'v1/emulator/health'), { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const body = answer.ok ? ((await answer.json()) as { apps?: unknown }) : undefined;
    return typeof body?.apps === 'number';
  } catch {
    return false;
  }
}

export interface Inbox {
  accepted: number;
  kept: number;
  messages: Record<string, unknown>[];
}

/** The newest `limit` messages the emulator kept, of one app or (appId undefined) of all. */
export async function readInbox(baseUrl: string, appId: string | undefined, limit: number): Promise<Inbox> {
  const url = endpoint(baseUrl, 'v1/emulator/messages');
  if (appId !== undefined) url.searchParams.set('app', appId);
  url.searchParams.set('limit', String(limit));
  const notEmulator = () => configError(`${baseUrl} is not an emulator: it has no inbox at /v1/emulator/messages`, 'list_inbox reads what `pushctl serve` kept: start it and point the base URL at it (--base-url http://127.0.0.1:8787)');
  // list_inbox is not listed for a region, but a client may call it anyway: the vendor is still not asked.
  if (isRegionHost(baseUrl)) {
    throw configError(`${baseUrl} is the Push Message Service itself, not an emulator: it has no inbox`, 'list_inbox reads what `pushctl serve` kept: start it and point the base URL at it (--base-url http://127.0.0.1:8787)');
  }
  let answer: Response;
  try {
    answer = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS * 4) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw configError(`cannot reach the emulator at ${baseUrl} (${cause})`, 'start it with `pushctl serve`, or check the base URL');
  }
  if (!answer.ok) throw notEmulator();
  const body = (await answer.json().catch(() => undefined)) as Partial<Inbox> | undefined;
  if (!body || !Array.isArray(body.messages)) throw notEmulator();
  return { accepted: body.accepted ?? 0, kept: body.kept ?? body.messages.length, messages: body.messages };
}
