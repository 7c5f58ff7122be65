// Building the settings report that `pushctl config` prints and `pushctl check` starts from: one place that
// resolves the settings and says where each came from, so the two commands never disagree.
import type { Ctx } from '../../context.js';
import type { SecretSink } from '../../output/redact.js';
import type { ConfigReport, Shown } from '../../output/config-report.js';
import { CliError } from '../../errors.js';
import { checkBaseUrl } from '../../settings/check-base-url.js';
import { baseUrlFromRegion } from '../../settings/resolve.js';
import { loadSettings, shareAppSecret, type LoadedSettings, type SettingsOptions } from '../../settings/load-settings.js';
import { displayProxyUrl, resolveProxy } from '../../settings/proxy.js';
import { choosePushProxy } from './proxy-choice.js';
import { audiencesOf } from '../../settings/audiences.js';
import { audienceSizes } from '../../settings/audience-sizes.js';

/** Hides any user:password in a URL before it is shown. */
function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '***';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url;
  }
}

const shown = (value: string | undefined, source: string | undefined): Shown =>
  value === undefined ? { value: null, source: null } : { value, source: source ?? null };

/**
 * The report of already loaded settings, with the audiences `--to` can name: `check` loads the settings once and
 * uses them for its request too.
 */
export async function configReportOf(options: SettingsOptions, loaded: LoadedSettings, ctx: Pick<Ctx, 'env'>, secrets?: SecretSink): Promise<ConfigReport> {
  const report = settingsReport(options, loaded, ctx, secrets);
  if (!loaded.file) return report;
  // The audiences `--to` can name here, with their sizes (docs/behaviour.md#audiences).
  const audiences = await audienceSizes(audiencesOf(loaded.file.config, loaded.settings.profile), loaded.file.filepath, async (file) => {
    // The reader of client IDs loads with its island, only for a config whose audiences name a file.
    const { countClientIds } = await import('../../input/client-id-feed.js');
    return countClientIds(file, ctx.env);
  });
  for (const a of audiences) if (a.problem) report.warnings.push(`audience "${a.name}": cannot read its client-ID file ${a.file}: ${a.problem}`);
  return { ...report, audiences };
}

function settingsReport(options: SettingsOptions, loaded: LoadedSettings, ctx: Pick<Ctx, 'env'>, secrets?: SecretSink): ConfigReport {
  const { settings, sources, warnings } = loaded;
  shareAppSecret(loaded, secrets);
  const report: ConfigReport = {
    configFile: shown(settings.configFile, sources.configFile),
    profile: shown(settings.profile, sources.profile),
    appId: shown(settings.appId, sources.appId),
    appSecret: { set: settings.appSecret !== undefined, source: settings.appSecret === undefined ? null : (sources.appSecret ?? null) },
    // Said beside a base URL set elsewhere, which is what a send uses: the region would point to another.
    region: { ...shown(settings.region, sources.region), used: baseUrlFromRegion(sources.baseUrl) },
    baseUrl: shown(displayUrl(settings.baseUrl), sources.baseUrl),
    timeout: shown(settings.timeout, sources.timeout),
    proxy: showProxy(options, loaded, ctx, secrets),
    insecure: settings.insecure,
    warnings: [...warnings],
  };
  // A file of profiles alone shows the app ID unset until one is chosen: say why, and how. (A top level with
  // its own app ID beside profiles is a choice, not a mistake: no warning.)
  const unchosen = loaded.unchosenProfiles ?? [];
  if (unchosen.length > 0 && settings.appId === undefined) {
    report.warnings.push(`no profile is chosen, and the settings of profiles ${unchosen.join(', ')} are not read: choose one with --profile ${unchosen[0]!} or PUSHCTL_PROFILE=${unchosen[0]!}`);
  }
  // The report diagnoses rather than refuses: a base URL that send would refuse becomes a warning here.
  try {
    checkBaseUrl(settings.baseUrl, { insecure: settings.insecure, source: sources.baseUrl });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    report.warnings.push(`send would refuse this base URL: ${error.message}${error.hint ? ` (${error.hint})` : ''}`);
  }
  return report;
}

/** Loads the settings and builds the report. */
export async function buildConfigReport(
  options: SettingsOptions,
  ctx: Pick<Ctx, 'env' | 'cwd' | 'stdin'>,
  secrets?: SecretSink,
): Promise<ConfigReport> {
  return configReportOf(options, await loadSettings(options, ctx), ctx, secrets);
}

/** The proxy a send would use; a proxy setting that is not a URL is reported, not thrown. */
function showProxy(options: SettingsOptions, loaded: LoadedSettings, ctx: Pick<Ctx, 'env'>, secrets?: SecretSink): Shown {
  try {
    const proxy = choosePushProxy(options, loaded, loaded.settings.baseUrl, ctx.env, secrets ?? { add: () => undefined });
    if (proxy) return { value: proxy.display, source: proxy.source };
    return { value: null, source: resolveProxy({ flag: options.proxy, env: ctx.env, file: loaded.file, profile: loaded.settings.profile, target: new URL(loaded.settings.baseUrl) }).source };
  } catch (error) {
    // The report diagnoses rather than refuses: a bad proxy or base URL is shown, not thrown.
    return { value: null, source: `unusable: ${displayProxyUrl(error instanceof Error ? error.message : String(error))}` };
  }
}
