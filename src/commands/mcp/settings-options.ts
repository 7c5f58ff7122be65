// The settings flags of `pushctl mcp` that every call starts from: what `send` would have been given.
import type { McpOptions } from './options.js';
import type { SettingsOptions } from '../../settings/load-settings.js';

export function settingsOptions(options: McpOptions, profile?: string): SettingsOptions {
  const { allowSend: _send, appSecretStdin: _stdin, verbose: _verbose, ...settings } = options;
  return { ...settings, ...(profile !== undefined ? { profile } : {}) };
}
