// What `pushctl config` (and `pushctl check`, before it proves the credentials) shows: each resolved setting
// and where it came from, as a type and a human table. The secret appears only as set/unset.
import type { AudienceSize } from '../settings/audience-sizes.js';
import { escapeControl } from './escape-control.js';
import type { TextSink } from '../context.js';
import type { ExitCode } from '../errors.js';
import { envelopeText, snakeKeys } from './envelope.js';
import { counted } from '../counted.js';

export interface Shown {
  value: string | null;
  source: string | null;
}

/** What `pushctl config` reports. The secret appears only as set/unset, never its value. */
export interface ConfigReport {
  configFile: Shown;
  profile: Shown;
  appId: Shown;
  appSecret: { set: boolean; source: string | null };
  /** `used`: false when a base URL set by a flag, env or file wins over the region's. */
  region: Shown & { used: boolean };
  baseUrl: Shown;
  timeout: Shown;
  /** The proxy a send would use (password masked), or null with the reason in source. */
  proxy: Shown;
  insecure: boolean;
  warnings: string[];
  /** The named audiences `--to` can use, with their sizes or conditions (present when a config file is). */
  audiences?: AudienceSize[];
}

/** One audience in words: "2 client IDs", "file ids.txt: 1,200 client IDs", "country IN; language hi,en". */
export function audienceText(audience: AudienceSize): string {
  switch (audience.kind) {
    case 'all':
      return 'all devices';
    case 'client_ids':
      return counted(audience.clientIds ?? 0, 'client ID', { locale: true });
    case 'client_ids_file':
      return `${audience.file}: ${audience.clientIds == null ? `unreadable (${audience.problem})` : counted(audience.clientIds, 'client ID', { locale: true })}`;
    case 'targeting':
      return `condition: ${Object.entries(audience.targeting ?? {}).map(([field, values]) => `${field} ${values.join(',')}`).join('; ')}`;
  }
}

function audienceRows(audiences: AudienceSize[] | undefined, row: (label: string, text: string) => string): string {
  if (audiences === undefined) return '';
  if (audiences.length === 0) return row('audiences', 'none (add one with pushctl init --audience name=id,id)');
  // Names and values come from the file: a line break in one must not forge a row of its own.
  return audiences.map((a, i) => row(i === 0 ? 'audiences' : '', escapeControl(`${a.name}: ${audienceText(a)}`))).join('');
}

/** The human table: one setting per line with its source in parentheses. */
export function formatConfigReport(report: ConfigReport): string {
  const row = (label: string, text: string) => `${label.padEnd(12)}${text}\n`;
  const value = (s: Shown, unset = 'unset') => (s.value === null ? unset : `${s.value} (${s.source})`);
  return (
    row('config file', report.configFile.value === null ? 'none found' : `${report.configFile.value} (${report.configFile.source})`) +
    row('profile', value(report.profile, 'none')) +
    row('app ID', value(report.appId)) +
    row('app secret', report.appSecret.set ? `set (${report.appSecret.source})` : 'unset') +
    row('region', `${value(report.region)}${report.region.used ? '' : `, not used: the base URL is set (${report.baseUrl.source})`}`) +
    row('base URL', value(report.baseUrl)) +
    row('timeout', value(report.timeout)) +
    row('proxy', report.proxy.value === null ? (report.proxy.source ?? 'none') : value(report.proxy)) +
    (report.insecure ? row('insecure', 'yes (flag --insecure)') : '') +
    audienceRows(report.audiences, row)
  );
}

/** What `pushctl config` comes to: the report of the resolved settings. */
export interface ConfigOutcome {
  exitCode: ExitCode;
  report: ConfigReport;
}

/** The table on stdout and its warnings on stderr; or, with --json, one JSON document. */
export function printConfig(outcome: ConfigOutcome, options: { json?: boolean | undefined }, ctx: { stdout: TextSink; stderr: TextSink }): void {
  const { report } = outcome;
  if (options.json) {
    ctx.stdout.write(envelopeText(outcome.exitCode, snakeKeys(report) as object));
    return;
  }
  ctx.stdout.write(formatConfigReport(report));
  for (const warning of report.warnings) ctx.stderr.write(`warning: ${warning}\n`);
}
