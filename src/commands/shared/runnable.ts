// How every command runs (STYLE.md): the options commander parsed are checked by the command's one schema,
// the command runs on what the schema gives, and the outcome is printed by its printer in output/.
import type * as z from 'zod/mini';
import { parseOptions } from './check-options.js';
import type { CommandCtx, LoadedCommand, Outcome } from './command.js';

export function runnable<O, R extends Outcome>(
  schema: z.ZodMiniType<O>,
  run: (options: O, ctx: CommandCtx) => Promise<R>,
  print: (outcome: R, options: O, ctx: CommandCtx) => void | Promise<void>,
): LoadedCommand {
  return {
    async execute(given, ctx) {
      const options = parseOptions(schema, given);
      const outcome = await run(options, ctx);
      await print(outcome, options, ctx);
      return outcome;
    },
  };
}
