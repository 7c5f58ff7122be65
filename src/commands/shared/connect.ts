// Stage 2 of a send: where it goes and as whom. Loads the settings, checks the base URL, timeout and secret,
// names the destination on stderr, and opens the client (through a proxy where one applies).
import type { Ctx } from '../../context.js';
import { usageError } from '../../errors.js';
import { createPushClient } from '../../client/proxy-agent.js';
import type { PushClient } from '../../client/push-client.js';
import { MAX_TIMER_MS, parseDurationMs } from '../../message/duration.js';
import { loadSettings, shareAppSecret, type LoadedSettings, type SettingsOptions } from '../../settings/load-settings.js';
import { requireCredentials } from '../../settings/resolve.js';
import { checkBaseUrl } from '../../settings/check-base-url.js';
import { describeDestination } from '../../output/destination.js';
import type { SecretScrubber } from '../../output/redact.js';
import { VERSION } from '../../version.js';
import { choosePushProxy } from './proxy-choice.js';
import { RunConfig } from './run-config.js';

export interface Connection {
  client: PushClient;
  baseUrl: URL;
  appId: string;
  /** "sending to <host> (<where that came from>)": said on stderr by connect for people, unless `announce` is false. */
  announcement: string;
  /** Where the app ID and the base URL came from ("flag --app-id", "config <file> (profile eu)"). */
  sources: { appId: string; baseUrl: string };
}

export interface ConnectMode {
  dryRun: boolean;
  human: boolean;
  announce?: boolean;
  targetSecretEnv?: string;
}

/**
 * `from`: the run's config file, which the settings are loaded from, or settings a command loaded and
 * checked itself (a resend's, see resend-destination.ts). Either way the file's warnings were said when
 * the run read it (run-config.ts).
 * `mode.targetSecretEnv`: one target of several, whose secret may come from this variable of its own.
 */
export async function connect(options: SettingsOptions, ctx: Ctx, scrubber: SecretScrubber, mode: ConnectMode, from: RunConfig | LoadedSettings): Promise<Connection> {
  const loaded = from instanceof RunConfig ? await loadSettings(options, ctx, await from.file()) : from;
  shareAppSecret(loaded, scrubber);
  const settings = requireCredentials(loaded, mode.targetSecretEnv !== undefined ? { secretEnv: mode.targetSecretEnv } : undefined, { secretFromStdin: ctx.secretFromStdin !== false });
  // The service takes the raw secret in Authorization; a scheme in front of it is answered 21004.
  const scheme = /^(bearer|basic|token)\s+/i.exec(settings.appSecret);
  if (scheme) ctx.stderr.write(`warning: the app secret starts with "${scheme[1]} "; the service takes the raw secret in the Authorization header (a prefix is answered 21004 App Secret illegal): drop the prefix\n`);
  const baseUrl = checkBaseUrl(settings.baseUrl, { insecure: settings.insecure });
  const timeoutMs = parseDurationMs(settings.timeout);
  if (timeoutMs === undefined) {
    throw usageError(`timeout ${JSON.stringify(settings.timeout)} (${loaded.sources.timeout}) is not a duration`, 'use e.g. --timeout 500ms or --timeout 10s');
  }
  if (timeoutMs === 0) {
    throw usageError(`timeout ${settings.timeout} (${loaded.sources.timeout}) is no time at all: every request would time out`, 'use e.g. --timeout 500ms or --timeout 10s');
  }
  if (timeoutMs > MAX_TIMER_MS) {
    throw usageError(`timeout ${settings.timeout} (${loaded.sources.timeout}) is longer than the ${MAX_TIMER_MS} ms (about 24.8 days) a timer can hold`, 'use e.g. --timeout 10s');
  }
  const destination = describeDestination(baseUrl, loaded.sources.baseUrl ?? 'default', loaded.sources.appSecret, mode.dryRun);
  if (destination.warning) ctx.stderr.write(destination.warning);
  if (mode.human && mode.announce !== false) ctx.stderr.write(destination.line);
  const proxy = choosePushProxy(options, loaded, baseUrl, ctx.env, scrubber);
  const client = await createPushClient({ baseUrl, baseUrlSource: loaded.sources.baseUrl ?? 'default', appId: settings.appId, appSecret: settings.appSecret, timeoutMs, userAgent: `pushctl/${VERSION}` }, proxy);
  const sources = { appId: loaded.sources.appId ?? 'unknown', baseUrl: loaded.sources.baseUrl ?? 'default' };
  return { client, baseUrl: new URL(baseUrl), appId: settings.appId, announcement: destination.line, sources };
}
