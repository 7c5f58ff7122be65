// What a tool of `pushctl mcp` is: its name, words for the client's model, the zod schemas of its arguments
// and of its result (the JSON Schemas a client sees are derived from them: json-schemas.ts), and a function
// from checked arguments to an answer. Tools never write to stdout: the protocol owns it.
import type * as z from 'zod/mini';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Ctx } from '../../context.js';
import type { SecretScrubber } from '../../output/redact.js';
import type { McpOptions } from './options.js';

/** What every call gets: the server's context and options (the settings flags each call starts from). */
export interface ToolCall {
  ctx: Ctx;
  scrubber: SecretScrubber;
  options: McpOptions;
}

/** A tool's answer: the --json document of the equivalent command, and the words a person would have read. */
export interface ToolAnswer {
  document: Record<string, unknown>;
  /** pushctl's words, said in the tools' terms (tool-terms.ts). */
  text: string;
  /** Data shown after the words as it is (a message body, the emulator's messages): never reworded. */
  verbatim?: string;
  isError: boolean;
}

export interface McpTool<Args = unknown> {
  name: string;
  title: string;
  description: string;
  args: z.ZodMiniType<Args>;
  result: z.ZodMiniType;
  annotations: ToolAnnotations;
  run(args: Args, call: ToolCall): Promise<ToolAnswer>;
}

/** Keeps a tool's argument type while it sits in a list of tools of other types. */
export const defineTool = <Args>(tool: McpTool<Args>): McpTool => tool;
