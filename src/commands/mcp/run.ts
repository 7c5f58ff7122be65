// `pushctl mcp`: the MCP server on stdio (src/mcp/). stdout carries protocol messages only; the log, scrubbed
// of secrets like every other diagnostic, goes to stderr.
import type { Ctx } from '../../context.js';
import { ExitCode } from '../../errors.js';
import type { SecretScrubber } from '../../output/redact.js';
import { serveStdio } from './server.js';
import { checkOptions } from '../shared/check-options.js';
import { mcpOptionsSchema, type McpOptions } from './options.js';

export async function mcpCommand(options: McpOptions, ctx: Ctx, scrubber: SecretScrubber): Promise<number> {
  checkOptions(mcpOptionsSchema, options);
  await serveStdio({ ctx, scrubber, options }, process.stdout);
  return ctx.interrupt.aborted ? ExitCode.interrupted : ExitCode.ok;
}
