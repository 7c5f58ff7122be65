// `--to <name>` (send, dry-run, validate, the action's `to`): reads the config file's audiences and hands
// back the options with the recipient flags the audience stands for, before anything else reads them.
import type { Ctx } from '../../context.js';
import { audienceOptions, audiencesOf, checkToAlone, type RecipientOptions } from '../../settings/audiences.js';
import { loadConfigFile } from '../../settings/load.js';
import { selectProfile } from '../../settings/resolve.js';
import { targetProfiles } from './target-list.js';

export interface AudienceChoice extends RecipientOptions {
  /** `--to <name>`: a named audience of the config file. */
  to?: string;
  /** `-c, --config` and `--profile`, where the command takes them. */
  config?: string;
  profile?: string;
}

/** The options with `to` replaced by the recipient options of its audience; unchanged without `to`. */
export async function applyAudience<T extends AudienceChoice>(options: T, ctx: Pick<Ctx, 'cwd' | 'env'> & Partial<Pick<Ctx, 'runJavaScriptConfig'>>): Promise<T> {
  if (options.to === undefined) return options;
  // Refused before the config is read: the mistake is in the command line, whatever the file holds.
  checkToAlone(options);
  const file = await loadConfigFile({ cwd: ctx.cwd, env: ctx.env, explicitPath: options.config, allowJavaScript: ctx.runJavaScriptConfig ?? true });
  // With several targets (docs/behaviour.md#targets) the audiences are the top level's: a profile's are one target's.
  const several = targetProfiles(options.profile, ctx.env) !== undefined;
  const profile = several ? undefined : selectProfile({ flags: { profile: options.profile }, env: ctx.env, file }).name;
  const recipients = audienceOptions(options.to, audiencesOf(file?.config, profile), file?.filepath);
  const { to: _to, ...rest } = options;
  return { ...rest, ...recipients } as T;
}
