// The MCP server of `pushctl mcp` on stdio: tools/list says what this server offers, tools/call checks the
// arguments and runs the tool. Whatever a call comes to, its answer is a result (isError for a failure);
// a malformed message is logged on stderr and the server reads on. It ends when the client closes stdin.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { usageError } from '../errors.js';
import { nearest } from '../suggest.js';
import { VERSION } from '../version.js';
import { parseArguments } from './arguments.js';
import { argumentNames, describeTool, offered, TOOLS, type Offer } from './catalog.js';
import { callContext } from './call-context.js';
import { destinationOf, isEmulator } from './emulator.js';
import { errorAnswer, toolResult } from './results.js';
import { settingsOptions } from './settings-options.js';
import type { McpTool, ToolCall } from './tool.js';

const INSTRUCTIONS =
  'pushctl sends push messages through the Push Message Service. Check a message with validate_message, have the service check it with dry_run (nothing is delivered), then send it with send_message where offered. Every run is journaled: list_runs and show_run read them; list_inbox shows what an emulator received.';

/** What this server offers now: list_inbox only while the base URL answers as an emulator. */
async function currentOffer(call: ToolCall): Promise<Offer> {
  const allowSend = call.options.allowSend === true;
  try {
    const { baseUrl } = await destinationOf(settingsOptions(call.options), callContext(call.ctx), call.scrubber);
    return { allowSend, emulator: await isEmulator(baseUrl) };
  } catch (error) {
    // Settings that do not load are each call's error to report; the tools are still listed.
    call.ctx.stderr.write(`pushctl mcp: no list_inbox: ${error instanceof Error ? error.message : String(error)}\n`);
    return { allowSend, emulator: false };
  }
}

async function callTool(tool: McpTool, given: unknown, call: ToolCall): Promise<CallToolResult> {
  try {
    if (!offered(tool, { allowSend: call.options.allowSend === true, emulator: true })) {
      throw usageError(`${tool.name} is not offered: this server was started without --allow-send, so no tool delivers a message`, 'use dry_run to have the service check it; to send, restart the server with `pushctl mcp --allow-send`');
    }
    const args = parseArguments(tool.args, given, tool.name, argumentNames(tool));
    const answer = await tool.run(args, call);
    call.ctx.stderr.write(`pushctl mcp: ${tool.name}: exit ${String(answer.document.exit_code)}\n`);
    return toolResult(answer, call.scrubber);
  } catch (error) {
    const answer = errorAnswer(error);
    call.ctx.stderr.write(`pushctl mcp: ${tool.name}: ${answer.text.trimEnd().replace(/\n/g, '; ')}\n`);
    if (call.options.verbose && error instanceof Error && error.stack) call.ctx.stderr.write(`${error.stack}\n`);
    return toolResult(answer, call.scrubber);
  }
}

/** Requests being answered: a client that closes stdin right after asking still gets its answers. */
class InFlight {
  private readonly open = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    this.open.add(work);
    void work.finally(() => this.open.delete(work)).catch(() => {});
    return work;
  }

  async settled(): Promise<void> {
    while (this.open.size > 0) await Promise.allSettled([...this.open]);
  }
}

export function createServer(call: ToolCall, inFlight = new InFlight()): Server {
  const server = new Server({ name: 'pushctl', title: 'pushctl', version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () =>
    inFlight.track(
      currentOffer(call).then((offer) => ({ tools: TOOLS.filter((tool) => offered(tool, offer)).map(describeTool) })),
    ),
  );
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const { name, arguments: given } = request.params;
    const tool = TOOLS.find((t) => t.name === name);
    if (!tool) {
      const near = nearest(name, TOOLS.map((t) => t.name));
      throw new McpError(ErrorCode.InvalidParams, `unknown tool "${name}"${near ? ` (did you mean "${near}"?)` : ''}: see tools/list`);
    }
    return inFlight.track(callTool(tool, given, call));
  });
  // A line that is not JSON-RPC is the client's mistake: say so on stderr, and read on.
  server.onerror = (error) => call.ctx.stderr.write(`pushctl mcp: ${error.message}\n`);
  return server;
}

/** Serves until the client closes stdin (or the transport closes), once the requests asked are answered. */
export async function serveStdio(call: ToolCall, stdout: NodeJS.WritableStream): Promise<void> {
  const inFlight = new InFlight();
  const server = createServer(call, inFlight);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  const stdin = call.ctx.stdin;
  // A handler's answer is written a turn after its promise settles: close after that turn.
  stdin.once('end', () => void inFlight.settled().then(() => new Promise((resolve) => setImmediate(resolve))).then(() => server.close()));
  await server.connect(new StdioServerTransport(stdin, stdout as NodeJS.WriteStream));
  call.ctx.stderr.write(`pushctl mcp ${VERSION}: serving on stdio${call.options.allowSend ? ' (send_message offered: --allow-send)' : ''}\n`);
  await closed;
}
