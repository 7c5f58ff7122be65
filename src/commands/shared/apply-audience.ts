// `--to <name>` (send, dry-run, validate, the action's `to`): reads the config file's audiences and hands
// back the options with the recipient flags the audience stands for, before anything else reads them.
import type { Ctx } from '../../context.js';
import type { AudienceChoice } from './audience-recipients.js';

/** The options with `to` replaced by the recipient options of its audience; unchanged without `to`. */
export async function applyAudience<T extends AudienceChoice>(options: T, ctx: Pick<Ctx, 'cwd' | 'env'> & Partial<Pick<Ctx, 'runJavaScriptConfig'>>): Promise<T> {
  if (options.to === undefined) return options;
  // Loaded for --to alone: `validate -f` reads no config file, and the settings code (the config file's
  // loader, trust checks and profiles) would otherwise run at its start.
  const { audienceRecipients } = await import('./audience-recipients.js');
  return audienceRecipients(options as T & { to: string }, ctx);
}
