// What the server does with tools/list and tools/call: loaded on the first of them, so `pushctl mcp`
// starts on the SDK alone (scripts/build.mjs makes this file an island of its own). Every call's answer
// is a result: a failure is one with isError and the CLI's message and hint.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { usageError } from '../../errors.js';
import { nearest } from '../../suggest.js';
import { parseArguments } from './arguments.js';
import { argumentNames, describeTool, offered, TOOLS, type Offer } from './catalog.js';
import { callContext } from './call-context.js';
import { destinationOf, isEmulator } from './emulator.js';
import { describeBytes } from '../../read-whole-file.js';
import { errorAnswer, toolResult } from './results.js';
// Only its type: the transport's module holds the SDK's message schemas, which the server's island has already.
import type { OversizedRequest } from './line-transport.js';
import { learnSecrets, profileArgument } from './secrets.js';
import { settingsOptions } from './settings-options.js';
import type { McpTool, ToolCall } from './tool.js';

/** The names of every tool's arguments: what an answer names instead of a flag (tool-terms.ts). */
let argumentsOfTools: ReadonlySet<string> | undefined;
const toolArguments = () => (argumentsOfTools ??= new Set(TOOLS.flatMap(argumentNames)));

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

async function runTool(tool: McpTool, given: unknown, call: ToolCall): Promise<CallToolResult> {
  try {
    if (!offered(tool, { allowSend: call.options.allowSend === true, emulator: true })) {
      throw usageError(`${tool.name} is not offered: this server was started without --allow-send, so no tool delivers a message`, 'use dry_run to have the service check it; to send, restart the server with `pushctl mcp --allow-send`');
    }
    const args = parseArguments(tool.args, given, tool.name, argumentNames(tool));
    const answer = await tool.run(args, call);
    call.ctx.stderr.write(`pushctl mcp: ${tool.name}: exit ${String(answer.document.exit_code)}\n`);
    return toolResult(answer, call.scrubber, toolArguments());
  } catch (error) {
    const answer = errorAnswer(error);
    call.ctx.stderr.write(`pushctl mcp: ${tool.name}: ${answer.text.trimEnd().replace(/\n/g, '; ')}\n`);
    if (call.options.verbose && error instanceof Error && error.stack) call.ctx.stderr.write(`${error.stack}\n`);
    return toolResult(answer, call.scrubber, toolArguments());
  }
}

export async function listTools(call: ToolCall): Promise<Tool[]> {
  const offer = await currentOffer(call);
  return TOOLS.filter((tool) => offered(tool, offer)).map(describeTool);
}

/** The tool's result, or the name of the tool meant when there is no tool of this name (a protocol error). */
export async function callTool(name: string, given: unknown, call: ToolCall): Promise<CallToolResult | { unknown: string; near?: string }> {
  // Before anything is answered, even a refusal that repeats what the client sent.
  await learnSecrets(call, profileArgument(given));
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) {
    const near = nearest(name, TOOLS.map((t) => t.name));
    return { unknown: name, ...(near ? { near } : {}) };
  }
  return runTool(tool, given, call);
}

/** Bytes as a person reads a size: 17.0 MiB. */
const mebibytes = (bytes: number) => `${(bytes / (1 << 20)).toFixed(1)} MiB`;

/**
 * The answer to a request too long to read (line-transport.ts): nothing of it was done. A tool call gets a tool
 * error, which the client's model reads, saying how to send less; any other request a protocol error.
 */
export function oversizedAnswer(request: OversizedRequest, call: ToolCall): { log: string; answer: { result: CallToolResult } | { error: string } } {
  const what = `the request is ${mebibytes(request.bytes)}, over the ${describeBytes(request.maxBytes)} pushctl mcp reads in one message: nothing of it was done`;
  const tool = request.method === 'tools/call' ? TOOLS.find((t) => t.name === request.tool) : undefined;
  const log = `${request.tool ?? request.method ?? 'a request'}${request.id === undefined ? ' (no id: not answered)' : ''}: ${what}`;
  if (!tool) return { log, answer: { error: what } };
  const error = usageError(`${tool.name}: ${what}`, 'give that many client IDs through `to`, a named audience whose client_ids_file lists them, or split them over several calls');
  return { log, answer: { result: toolResult(errorAnswer(error), call.scrubber, toolArguments()) } };
}
