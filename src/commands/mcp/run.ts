// `pushctl mcp`: the MCP server on stdio (src/mcp/). stdout carries protocol messages only; the log, scrubbed
// of secrets like every other diagnostic, goes to stderr.
import { ExitCode } from '../../errors.js';
import { nodeStdout } from '../../stdio-sink.js';
import { serveStdio } from './server.js';
import type { CommandCtx, Outcome } from '../shared/command.js';
import { runnable } from '../shared/runnable.js';
import { mcpOptionsSchema, type McpOptions } from './options.js';

export async function mcp(options: McpOptions, ctx: CommandCtx): Promise<Outcome> {
  await serveStdio({ ctx, scrubber: ctx.scrubber, options }, nodeStdout());
  return { exitCode: ctx.interrupt.aborted ? ExitCode.interrupted : ExitCode.ok };
}

// The protocol was the output: nothing is left to print.
export const command = runnable(mcpOptionsSchema, mcp, () => {});
