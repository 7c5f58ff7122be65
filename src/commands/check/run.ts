// `pushctl check`, like `gh auth status`: where each setting came from, then the app ID and secret proved
// by one dry run to the service, answered in one line.
//
// The probe is a dry run ("dry_run": true: the service checks it and delivers nothing) addressed to one
// client ID that no device can have, so even a service that ignored dry_run would reach no one. It is one
// attempt, never retried: a check answers now, and a retry could only hide what is wrong.
import type { Ctx } from '../../context.js';
import { CliError, ExitCode } from '../../errors.js';
import { MAX_TIMER_MS, parseDurationMs } from '../../message/duration.js';
import { createPushClient } from '../../client/proxy-agent.js';
import { describeStatus } from '../../client/codes.js';
import type { AttemptOutcome } from '../../client/outcome.js';
import { loadSettings } from '../../settings/load-settings.js';
import { requireCredentials } from '../../settings/resolve.js';
import { checkBaseUrl } from '../../settings/check-base-url.js';
import type { SecretSink } from '../../output/redact.js';
import { printCheck, type CheckOutcome } from '../../output/check.js';
import { VERSION } from '../../version.js';
import { configReportOf } from '../shared/config-report.js';
import { choosePushProxy } from '../shared/proxy-choice.js';

import { runnable } from '../shared/runnable.js';
import { checkOptionsSchema, type CheckOptions } from './options.js';

export type { CheckOutcome };

/** A client ID no device is given: the probe's only recipient. */
export const CHECK_CLIENT_ID = 'pushctl-check-no-such-device';

/** The probe: a valid, minimal notification, as a dry run to a client ID that cannot exist. */
export const checkProbeBody = () => ({
  type: 1,
  time_to_live: 60,
  dry_run: true,
  condition: { type: 2, client_ids: [CHECK_CLIENT_ID] },
  notification: { title: 'pushctl check', desc: 'credentials check: a dry run, never delivered' },
});

const failed = (exitCode: ExitCode, message: string, hint: string | undefined, rest: Partial<CheckOutcome> = {}): CheckOutcome => ({
  ok: false,
  exitCode,
  ...rest,
  line: message,
  error: { message, ...(hint ? { hint } : {}) },
});

/**
 * Resolves the settings and proves the credentials with one dry run. Prints nothing and throws only on a
 * bug: every expected failure (missing credentials, a refused base URL, a rejection, no connection) is an
 * outcome with its exit code, so the action's `mode: check` can word it in its own terms.
 */
export async function check(options: CheckOptions, ctx: Pick<Ctx, 'env' | 'cwd' | 'stdin'> & { scrubber?: SecretSink }): Promise<CheckOutcome> {
  const secrets = ctx.scrubber;
  let loaded;
  try {
    loaded = await loadSettings(options, ctx);
  } catch (error) {
    if (error instanceof CliError) return failed(error.exitCode, error.message, error.hint);
    throw error;
  }
  const settings = await configReportOf(options, loaded, ctx, secrets);
  let credentials;
  let baseUrl: string;
  let timeoutMs: number;
  try {
    credentials = requireCredentials(loaded);
    baseUrl = checkBaseUrl(loaded.settings.baseUrl, { insecure: loaded.settings.insecure, source: loaded.sources.baseUrl });
    const ms = parseDurationMs(loaded.settings.timeout);
    if (ms === undefined || ms <= 0 || ms > MAX_TIMER_MS) {
      return failed(ExitCode.usage, `timeout ${JSON.stringify(loaded.settings.timeout)} (${loaded.sources.timeout}) is not a usable duration`, 'use e.g. --timeout 500ms or --timeout 10s', { settings });
    }
    timeoutMs = ms;
  } catch (error) {
    if (error instanceof CliError) return failed(error.exitCode, error.message, error.hint, { settings });
    throw error;
  }

  const proxy = choosePushProxy(options, loaded, baseUrl, ctx.env, secrets ?? { add: () => undefined });
  let client;
  try {
    client = await createPushClient({ baseUrl, baseUrlSource: loaded.sources.baseUrl ?? 'default', appId: credentials.appId, appSecret: credentials.appSecret, timeoutMs, userAgent: `pushctl/${VERSION}` }, proxy);
  } catch (error) {
    if (error instanceof CliError) return failed(error.exitCode, error.message, error.hint, { settings });
    throw error;
  }
  const probe = { appId: credentials.appId, host: client.url.host, dryRun: true as const, clientId: CHECK_CLIENT_ID };
  let outcome: AttemptOutcome;
  try {
    outcome = await client.send(checkProbeBody());
  } finally {
    client.close();
  }
  return judge(outcome, { settings, probe, baseUrlSource: loaded.sources.baseUrl ?? 'default', via: proxy ? ` through the proxy ${proxy.display} (${proxy.source})` : '' });
}

/** The one line for each kind of answer, with the exit code docs/behaviour.md#exit-codes gives it. */
function judge(outcome: AttemptOutcome, at: { settings: CheckOutcome['settings']; probe: NonNullable<CheckOutcome['probe']>; baseUrlSource: string; via: string }): CheckOutcome {
  const { settings, probe } = at;
  const where = `app ${probe.appId} at ${probe.host}`;
  if (outcome.kind === 'accepted') {
    return {
      ok: true,
      exitCode: ExitCode.ok,
      settings,
      probe,
      answer: { code: 200, meaning: 'OK', messageId: outcome.messageId },
      line: `credentials accepted: ${where} (a dry run, nothing delivered)`,
    };
  }
  if (outcome.kind === 'rejected') {
    const info = describeStatus(outcome.code);
    // The service's text often repeats the meaning ("App Secret illegal: ..."): say it once.
    const text = !outcome.message ? info.meaning : outcome.message.startsWith(info.meaning) ? outcome.message : `${info.meaning}: ${outcome.message}`;
    return failed(ExitCode.rejected, `rejected by the service: ${outcome.code} ${text} (${where})`, info.hint, {
      settings,
      probe,
      answer: { code: outcome.code, meaning: info.meaning, ...(outcome.message ? { message: outcome.message } : {}) },
    });
  }
  // No clear answer: nothing listened, the name did not resolve, a timeout, a gateway's error. The way out is
  // the classifier's where it knows one (pushctl serve for loopback), said once, as send says it.
  const fix = (outcome.kind === 'retryable' ? outcome.fix : undefined) ?? `check the base URL (${at.baseUrlSource}) or --region, the network${at.via ? ' and the proxy' : ''}`;
  const hint = `${fix}, then run pushctl check again`;
  return failed(ExitCode.network, `no answer from the service${at.via}: ${outcome.reason} (${where})`, hint, { settings, probe });
}

export const command = runnable(checkOptionsSchema, check, printCheck);
