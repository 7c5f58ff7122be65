// The options of `pushctl mcp`, checked by one schema: the settings every tool call starts from (the shared
// settings flags), and whether the server offers send_message at all.
import '../../message/zod-jitless.js';
import * as z from 'zod/mini';
import { settingsOptionsSchema } from '../shared/settings-options.js';

export const mcpOptionsSchema = z.extend(settingsOptionsSchema, {
  /** `--allow-send`: offer send_message, which delivers to real devices. Without it no tool delivers anything. */
  allowSend: z.optional(z.boolean()),
  // The client speaks the protocol on stdin, so the secret cannot come from there.
  appSecretStdin: z.optional(
    z.literal(false, '--app-secret-stdin cannot be used with mcp (its stdin carries the MCP client\'s messages): use --app-secret-file <path>, or PUSHCTL_APP_SECRET in the "env" of the client\'s server entry'),
  ),
});

export type McpOptions = z.infer<typeof mcpOptionsSchema>;
