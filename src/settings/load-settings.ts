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
 * The I/O half of settings resolution: finds and validates the config file, reads the secret from
 * `--app-secret-file`/`--app-secret-stdin`, then calls the pure resolveSettings.
 */
export async function loadSettings(options: SettingsOptions, ctx: Pick<Ctx, 'env' | 'cwd' | 'stdin'> & Partial<Pick<Ctx, 'interrupt' | 'runJavaScriptConfig'>>): Promise<LoadedSettings> {
  const file = await loadConfigFile({ cwd: ctx.cwd, env: ctx.env, explicitPath: options.config, allowJavaScript: ctx.runJavaScriptConfig ?? true });
  const secret = await readSecret(options, ctx);
  return { ...resolveSettings({ flags: options, env: ctx.env, file, secret }), file };
}
