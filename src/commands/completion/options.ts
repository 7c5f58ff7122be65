// The options of `pushctl completion`: the shell, checked by one schema.
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';
import { SHELLS } from '../../output/completion.js';

export const completionOptionsSchema = z.object({
  shell: z.enum(SHELLS, `no completion for that shell: choose one of ${SHELLS.join(', ')}`),
});

export type CompletionOptions = z.infer<typeof completionOptionsSchema>;
