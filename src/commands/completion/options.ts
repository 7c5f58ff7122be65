// The options of `pushctl completion`: the shell, or (for the scripts themselves) a kind of name to list,
// checked by one schema.
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';
import { NAME_KINDS, SHELLS } from '../../output/completion.js';

export const completionOptionsSchema = z.object({
  shell: z.optional(z.enum(SHELLS, `no completion for that shell: choose one of ${SHELLS.join(', ')}`)),
  names: z.optional(z.enum(NAME_KINDS, `--names lists ${NAME_KINDS.join(' or ')}`)),
});

export type CompletionOptions = z.infer<typeof completionOptionsSchema>;
