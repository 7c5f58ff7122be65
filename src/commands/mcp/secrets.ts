// The secrets a call could echo, known before it runs. A result is scrubbed of the secrets the scrubber
// knows (results.ts), and the CLI learns its secret when it loads its settings; but validate_message loads
// none, and a client may call it before tools/list (which loads the server's), or name a profile whose own
// secret (PUSHCTL_APP_SECRET_EU) no other call read. So each call first reads the settings it names.
import { loadSettings } from '../../settings/load-settings.js';
import { targetEnv, targetProfiles } from '../shared/target-list.js';
import { callContext } from './call-context.js';
import { settingsOptions } from './settings-options.js';
import type { ToolCall } from './tool.js';

/** The profile a call's arguments name, if they name one as a string. */
export function profileArgument(given: unknown): string | undefined {
  const profile = given !== null && typeof given === 'object' ? (given as { profile?: unknown }).profile : undefined;
  return typeof profile === 'string' ? profile : undefined;
}

/** The profiles a call reads settings for: each of a list (eu,us) with its own secret variable, or the one. */
function profilesOf(call: ToolCall, profile: string | undefined): (string | undefined)[] {
  try {
    return targetProfiles(profile ?? call.options.profile, call.ctx.env) ?? [profile];
  } catch {
    return [profile];
  }
}

/** Hands the secret of the server's settings, or of the profile(s) the call names, to the scrubber. */
export async function learnSecrets(call: ToolCall, profile: string | undefined): Promise<void> {
  const profiles = profilesOf(call, profile);
  for (const name of profiles) {
    const ctx = callContext(call.ctx);
    const env = name !== undefined && profiles.length > 1 ? targetEnv(ctx.env, name) : ctx.env;
    try {
      const loaded = await loadSettings(settingsOptions(call.options, name), { ...ctx, env });
      call.scrubber.add(loaded.settings.appSecret);
    } catch {
      // Settings that do not load are the call's own error to report, if it needs them.
    }
  }
}
