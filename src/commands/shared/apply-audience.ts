// `--to <name>` (send, dry-run, validate, the action's `to`): reads the config file's audiences and hands
// back the options with the recipient flags the audience stands for, before anything else reads them.
import type { Ctx } from '../../context.js';
import type { AudienceChoice } from './audience-recipients.js';
import type { RunConfig } from './run-config.js';

/** The options with `to` replaced by the recipient options of its audience; unchanged without `to`. */
export async function applyAudience<T extends AudienceChoice>(options: T, ctx: Pick<Ctx, 'cwd' | 'env' | 'stderr'> & Partial<Pick<Ctx, 'runJavaScriptConfig'>>, config?: RunConfig): Promise<T> {
  if (options.to === undefined) return options;
  // Loaded for --to alone: `validate -f` reads no config file, and the settings code (the config file's
  // loader, trust checks and profiles) would otherwise run at its start.
  const [{ audienceRecipients }, { RunConfig }] = await Promise.all([import('./audience-recipients.js'), import('./run-config.js')]);
  return audienceRecipients(options as T & { to: string }, ctx, config ?? new RunConfig(options, ctx));
}
