// Where a resend goes (docs/behaviour.md#ownership): where its run went, and the secret only where the
// user's settings point. A journal is data, not settings: when the settings in force (environment, profile,
// config, or the default region when nothing is set) name another app or base URL than the run's, the
// resend refuses and names both; a flag on the command line chooses, and is labelled as the flag.
import type { Ctx } from '../../context.js';
import { usageError } from '../../errors.js';
import type { HeaderRecord } from '../../journal/records.js';
import { journalBaseUrl } from '../../journal/run-journal.js';
import { loadSettings, type LoadedSettings, type SettingsOptions } from '../../settings/load-settings.js';
import { escapeControl } from '../../output/escape-control.js';
import type { RunConfig } from './run-config.js';

/** The base URL a run's journal names, as journals keep it. */
export const runBaseUrl = (header: HeaderRecord) => header.base_url ?? `https://${header.host}`;

/** A base URL in the journal's form, or the text as it is when it is no URL (checkBaseUrl reports that later). */
function comparable(url: string): string {
  try {
    return journalBaseUrl(new URL(url));
  } catch {
    return url;
  }
}

/**
 * The settings a resend of the run with `header` sends with: loaded once (a secret read from stdin cannot be
 * read twice), the app ID taken from the journal when the settings name none, and the destination labelled
 * with its true source. Throws a usage error (exit 2) when the settings point elsewhere than the run went.
 */
export async function resendSettings(options: SettingsOptions, header: HeaderRecord, ctx: Pick<Ctx, 'env' | 'cwd' | 'stdin'>, config: RunConfig): Promise<LoadedSettings> {
  const loaded = await loadSettings(options, ctx, await config.file());
  const run = escapeControl(header.run_id);
  const went = escapeControl(runBaseUrl(header));
  const byFlag = options.baseUrl !== undefined || options.region !== undefined;
  const points = comparable(loaded.settings.baseUrl);
  if (!byFlag && points !== runBaseUrl(header)) {
    throw usageError(
      `run ${run} went to ${went}, but your settings send to ${escapeControl(points)} (${loaded.sources.baseUrl ?? 'default region'}); a resend sends where its run went, and the secret only where your settings point`,
      `to finish it there, run it with --base-url ${went}; to send the rest elsewhere, name that with --base-url or --region`,
    );
  }
  const app = loaded.settings.appId;
  if (options.appId === undefined && app !== undefined && app !== header.app_id) {
    throw usageError(
      `run ${run} was sent as app ${escapeControl(header.app_id)}, but your settings name app ${escapeControl(app)} (${loaded.sources.appId ?? 'settings'})`,
      // Both ways, as for the base URL: after "App ID illegal" (21002) the run's own app is the wrong one.
      `to finish it as the same app, run it with --app-id ${escapeControl(header.app_id)} (and that app's secret); to send the rest as app ${escapeControl(app)}, run it with --app-id ${escapeControl(app)}`,
    );
  }
  return {
    ...loaded,
    settings: { ...loaded.settings, appId: options.appId ?? app ?? header.app_id },
    sources: {
      ...loaded.sources,
      ...(options.appId === undefined && app === undefined ? { appId: "the run's journal" } : {}),
      ...(byFlag ? {} : { baseUrl: `the run's journal, as ${loaded.sources.baseUrl ?? 'the default region'}` }),
    },
  };
}
