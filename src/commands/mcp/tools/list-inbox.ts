// list_inbox: what the emulator accepted, newest last, as its inbox page shows it. Offered only when the base
// URL is an emulator (server.ts asks before listing the tools).
import '../../../message/zod-jitless.js';
import * as z from 'zod/mini';
import { counted } from '../../../counted.js';
import { ExitCode } from '../../../errors.js';
import { destinationOf, readInbox } from '../emulator.js';
import { settingsOptions } from '../settings-options.js';
import { inboxOutputSchema } from '../output-schemas.js';
import { callContext } from '../call-context.js';
import { defineTool } from '../tool.js';

const LIMIT = 'limit must be a whole number from 1 to 1000: e.g. 20';
const args = z.strictObject({
  limit: z.optional(z.int().check(z.minimum(1, LIMIT), z.maximum(1000, LIMIT))),
  allApps: z.optional(z.boolean()),
});

export const listInboxTool = defineTool({
  name: 'list_inbox',
  title: "List the emulator's inbox",
  description: "The messages the emulator (`pushctl serve`) accepted for the server's app ID, newest last (allApps: of every app): each with its message_id, whether it was a dry run or delivered, and the body as the service took it. Use it to see what a send or dry run really sent.",
  args,
  result: inboxOutputSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run({ limit = 20, allApps = false }: z.infer<typeof args>, { ctx, scrubber, options }) {
    const { baseUrl, appId } = await destinationOf(settingsOptions(options), callContext(ctx), scrubber);
    const app = allApps ? undefined : appId;
    const inbox = await readInbox(baseUrl, app, limit);
    const lines = inbox.messages.map((m) => `${String(m.received_at)}  ${String(m.message_id)}  ${m.dry_run ? 'dry run' : 'delivered'}  ${JSON.stringify(m.body)}`);
    const text = `${inbox.messages.length} of ${counted(inbox.kept, 'kept message')} at ${baseUrl}${app !== undefined ? ` for app ${app}` : ''}\n${lines.join('\n')}${lines.length ? '\n' : ''}`;
    // The bodies are the messages as sent: data, never reworded.
    return { document: { ok: true, exit_code: ExitCode.ok, base_url: baseUrl, ...(app !== undefined ? { app_id: app } : {}), ...inbox }, text: '', verbatim: text, isError: false };
  },
});
