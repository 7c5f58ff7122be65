// `pushctl dry-run`: send's run with "dry_run": true. Send's code, its options schema and its printer are
// loaded from send's own file (scripts/build.mjs), not bundled a second time into this one.
import type { SendOutcome } from '../../output/send.js';
import type { CommandCtx, LoadedCommand } from '../shared/command.js';
import type { DryRunOptions } from './options.js';

export async function dryRun(options: DryRunOptions, ctx: CommandCtx): Promise<SendOutcome> {
  const { send } = await import('../send/run.js');
  return send({ ...options, dryRun: true }, ctx);
}

export const command: LoadedCommand = {
  execute: async (given, ctx) => (await import('../send/run.js')).sendShaped(dryRun).execute(given, ctx),
};
