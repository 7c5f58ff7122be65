// Which tools a server offers: the read-only ones always, send_message only with --allow-send, list_inbox
// only when the base URL is an emulator. Their JSON Schemas are derived once, on first use.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { inputJsonSchema, outputJsonSchema } from './json-schemas.js';
import type { McpTool } from './tool.js';
import { dryRunTool, sendMessageTool } from './tools/deliver-message.js';
import { listInboxTool } from './tools/list-inbox.js';
import { listRunsTool } from './tools/list-runs.js';
import { messageSchemaTool } from './tools/message-schema.js';
import { showRunTool } from './tools/show-run.js';
import { validateMessageTool } from './tools/validate-message.js';

export const TOOLS: readonly McpTool[] = [validateMessageTool, dryRunTool, sendMessageTool, listRunsTool, showRunTool, listInboxTool, messageSchemaTool];

export interface Offer {
  allowSend: boolean;
  emulator: boolean;
}

export function offered(tool: McpTool, offer: Offer): boolean {
  if (tool === sendMessageTool) return offer.allowSend;
  if (tool === listInboxTool) return offer.emulator;
  return true;
}

const described = new Map<McpTool, Tool>();

/** The tool as tools/list shows it. */
export function describeTool(tool: McpTool): Tool {
  let listed = described.get(tool);
  if (!listed) {
    listed = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: inputJsonSchema(tool.args),
      outputSchema: outputJsonSchema(tool.result),
      annotations: { title: tool.title, ...tool.annotations },
    };
    described.set(tool, listed);
  }
  return listed;
}

/** The names of a tool's arguments, for the hint of an argument error. */
export function argumentNames(tool: McpTool): string[] {
  return Object.keys((describeTool(tool).inputSchema.properties ?? {}) as object);
}
