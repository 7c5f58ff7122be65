// What `--to <name>` stands for: the config file's audience of that name as recipient options (see
// apply-audience.ts, which loads this module only when --to is given).
import type { Ctx } from '../../context.js';
import { audienceOptions, audiencesOf, checkSharedAudience, checkToAlone, type RecipientOptions } from '../../settings/audiences.js';
import type { RunConfig } from './run-config.js';
import { selectProfile } from '../../settings/resolve.js';
import { targetProfiles } from './target-list.js';

export interface AudienceChoice extends RecipientOptions {
  /** `--to <name>`: a named audience of the config file. */
  to?: string;
  /** `-c, --config` and `--profile`, where the command takes them. */
  config?: string;
  profile?: string;
}

/** The options with `to` replaced by the recipient options of its audience. */
export async function audienceRecipients<T extends AudienceChoice & { to: string }>(options: T, ctx: Pick<Ctx, 'env'>, config: RunConfig): Promise<T> {
  // Refused before the config is read: the mistake is in the command line, whatever the file holds.
  checkToAlone(options);
  const file = await config.file();
  // With several targets (docs/behaviour.md#targets) the audiences are the top level's: a profile's are one target's.
  const several = targetProfiles(options.profile, ctx.env);
  if (several) checkSharedAudience(options.to, file?.config, several);
  const profile = several ? undefined : selectProfile({ flags: { profile: options.profile }, env: ctx.env, file }).name;
  const recipients = audienceOptions(options.to, audiencesOf(file?.config, profile), file?.filepath);
  const { to: _to, ...rest } = options;
  return { ...rest, ...recipients } as T;
}
