import type { Ctx } from '../context.js';
import { loadConfigFile, type LoadedConfig } from './load.js';
import { readSecret, type ReadSecretOptions } from './read-secret.js';
import { resolveSettings, type ResolvedSettings, type SettingsFlags } from './resolve.js';

/** Every settings-related option a command accepts: the flags of docs/behaviour.md#settings. */
export interface SettingsOptions extends SettingsFlags, ReadSecretOptions {
  /** `-c, --config <path>` */
  config?: string;
  /** `--proxy <url>` (src/settings/proxy.ts). */
  proxy?: string;
}

export interface LoadedSettings extends ResolvedSettings {
  file: LoadedConfig | null;
}

/**
 * The I/O half of settings resolution: finds and validates the config file (unless `file` is one the run
 * has read already; null: none was found), reads the secret from `--app-secret-file`/`--app-secret-stdin`,
 * then calls the pure resolveSettings.
 */
export async function loadSettings(options: SettingsOptions, ctx: Pick<Ctx, 'env' | 'cwd' | 'stdin'> & Partial<Pick<Ctx, 'interrupt' | 'runJavaScriptConfig'>>, read?: LoadedConfig | null): Promise<LoadedSettings> {
  const file = read !== undefined ? read : await loadConfigFile({ cwd: ctx.cwd, env: ctx.env, explicitPath: options.config, allowJavaScript: ctx.runJavaScriptConfig ?? true });
  const secret = await readSecret(options, ctx);
  return { ...resolveSettings({ flags: options, env: ctx.env, file, secret }), file };
}

/**
 * Hands the loaded secret to `sink` (the output scrubber), named by where it came from: a secret too short
 * to mask is warned about by that name ("the app secret (env PUSHCTL_APP_SECRET_EU)"), not as "a secret".
 */
export function shareAppSecret(loaded: Pick<ResolvedSettings, 'settings' | 'sources'>, sink: { add(secret: string | undefined, what?: string): void } | undefined): void {
  sink?.add(loaded.settings.appSecret, `the app secret (${loaded.sources.appSecret ?? 'unknown'})`);
}
