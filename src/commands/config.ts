import type { Ctx } from '../context.js';
import type { SecretSink } from '../output/redact.js';
import { envelopeText, snakeKeys } from '../output/envelope.js';
import { CliError, ExitCode } from '../errors.js';
import { checkBaseUrl } from '../settings/check-base-url.js';
import { loadSettings, type SettingsOptions } from '../settings/load-settings.js';
import { choosePushProxy } from './shared/proxy-choice.js';
import { displayProxyUrl, resolveProxy } from '../settings/proxy.js';

export interface ShowConfigOptions extends SettingsOptions {
  /** Print one JSON document instead of the human table. */
  json?: boolean;
}

interface Shown {
  value: string | null;
  source: string | null;
}

/** What `pushctl config` reports. The secret appears only as set/unset, never its value. */
export interface ConfigReport {
  configFile: Shown;
  profile: Shown;
  appId: Shown;
  appSecret: { set: boolean; source: string | null };
  region: Shown;
  baseUrl: Shown;
  timeout: Shown;
  /** The proxy a send would use (password masked), or null with the reason in source. */
  proxy: Shown;
  insecure: boolean;
  warnings: string[];
}

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

/** Builds the report from the resolved settings; pure apart from reading them. */
export async function buildConfigReport(
  options: SettingsOptions,
  ctx: Pick<Ctx, 'env' | 'cwd' | 'stdin'>,
  secrets?: SecretSink,
): Promise<ConfigReport> {
  const loaded = await loadSettings(options, ctx);
  const { settings, sources, warnings } = loaded;
  secrets?.add(settings.appSecret);
  const report: ConfigReport = {
    configFile: shown(settings.configFile, sources.configFile),
    profile: shown(settings.profile, sources.profile),
    appId: shown(settings.appId, sources.appId),
    appSecret: { set: settings.appSecret !== undefined, source: settings.appSecret === undefined ? null : (sources.appSecret ?? null) },
    region: shown(settings.region, sources.region),
    baseUrl: shown(displayUrl(settings.baseUrl), sources.baseUrl),
    timeout: shown(settings.timeout, sources.timeout),
    proxy: showProxy(options, loaded, ctx, secrets),
    insecure: settings.insecure,
    warnings: [...warnings],
  };
  // `config` diagnoses rather than refuses: a base URL that send would refuse becomes a warning here.
  try {
    checkBaseUrl(settings.baseUrl, { insecure: settings.insecure, source: sources.baseUrl });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    report.warnings.push(`send would refuse this base URL: ${error.message}${error.hint ? ` (${error.hint})` : ''}`);
  }
  return report;
}

/** The human table: one setting per line with its source in parentheses. */
export function formatConfigReport(report: ConfigReport): string {
  const row = (label: string, text: string) => `${label.padEnd(12)}${text}\n`;
  const value = (s: Shown, unset = 'unset') => (s.value === null ? unset : `${s.value} (${s.source})`);
  return (
    row('config file', report.configFile.value === null ? 'none found' : `${report.configFile.value} (${report.configFile.source})`) +
    row('profile', value(report.profile, 'none')) +
    row('app ID', value(report.appId)) +
    row('app secret', report.appSecret.set ? `set (from ${report.appSecret.source})` : 'unset') +
    row('region', value(report.region)) +
    row('base URL', value(report.baseUrl)) +
    row('timeout', value(report.timeout)) +
    row('proxy', report.proxy.value === null ? (report.proxy.source ?? 'none') : value(report.proxy)) +
    (report.insecure ? row('insecure', 'yes (flag --insecure)') : '')
  );
}

/**
 * `pushctl config`: shows each resolved setting and where it came from. Writes the table (or with `json`,
 * one JSON document) to stdout and, in human mode, warnings to stderr; returns the report.
 */
export async function showConfig(options: ShowConfigOptions, ctx: Ctx, secrets?: SecretSink): Promise<ConfigReport> {
  const report = await buildConfigReport(options, ctx, secrets);
  if (options.json) {
    ctx.stdout.write(envelopeText(0, snakeKeys(report) as object));
  } else {
    ctx.stdout.write(formatConfigReport(report));
    for (const warning of report.warnings) ctx.stderr.write(`warning: ${warning}\n`);
  }
  return report;
}

/** The CLI's entry point: the `(options, ctx, scrubber) → exit code` shape cli.ts runs. */
export async function configCommand(options: ShowConfigOptions, ctx: Ctx, secrets?: SecretSink): Promise<number> {
  await showConfig(options, ctx, secrets);
  return ExitCode.ok;
}

/** The proxy a send would use; a proxy setting that is not a URL is reported, not thrown. */
function showProxy(options: SettingsOptions, loaded: Awaited<ReturnType<typeof loadSettings>>, ctx: Pick<Ctx, 'env'>, secrets?: SecretSink): Shown {
  try {
    const proxy = choosePushProxy(options, loaded, loaded.settings.baseUrl, ctx.env, secrets ?? { add: () => undefined });
    if (proxy) return { value: proxy.display, source: proxy.source };
    return { value: null, source: resolveProxy({ flag: options.proxy, env: ctx.env, file: loaded.file, profile: loaded.settings.profile, target: new URL(loaded.settings.baseUrl) }).source };
  } catch (error) {
    // config diagnoses rather than refuses: a bad proxy or base URL is shown, not thrown.
    return { value: null, source: `unusable: ${displayProxyUrl(error instanceof Error ? error.message : String(error))}` };
  }
}
