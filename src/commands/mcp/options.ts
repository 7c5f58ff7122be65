// The options of `pushctl mcp`, checked by one schema: the settings every tool call starts from, and whether
// the server offers send_message at all.
import '../../message/zod-jitless.js';
import * as z from 'zod/mini';

const text = z.optional(z.string());

export const mcpOptionsSchema = z.object({
  /** `--allow-send`: offer send_message, which delivers to real devices. Without it no tool delivers anything. */
  allowSend: z.optional(z.boolean()),
  appId: text,
  appSecretFile: text,
  // The client speaks the protocol on stdin, so the secret cannot come from there.
  appSecretStdin: z.optional(
    z.literal(false, '--app-secret-stdin cannot be used with mcp (its stdin carries the MCP client\'s messages): use --app-secret-file <path>, or PUSHCTL_APP_SECRET in the "env" of the client\'s server entry'),
  ),
  region: text,
  baseUrl: text,
  profile: text,
  config: text,
  insecure: z.optional(z.boolean()),
  proxy: text,
  timeout: text,
  verbose: z.optional(z.boolean()),
});

export type McpOptions = z.infer<typeof mcpOptionsSchema>;
