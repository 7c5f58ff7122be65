// A request whose params the SDK's own schema refuses is answered here, before the SDK sees it. The SDK's
// Protocol parses a request with the method's schema and answers a failed parse with -32603 (an internal error)
// whose text is zod's issue list dumped as JSON: `tools/call` with `"arguments": [1, 2]` read as a bug in the
// server, in words no model acts on. Here it is -32602 (invalid params) in one sentence naming the param. Pure.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CallToolRequestSchema, InitializeRequestSchema, ListToolsRequestSchema, PingRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** The requests this server answers, by method: the schemas the SDK parses them with. */
const REQUESTS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
} as const;

/** What a param holds, said where it is wrong. */
const MEANING: Record<string, string> = {
  arguments: 'the tool\'s arguments by name, e.g. {"all": true, "title": "Hi"}',
  name: 'the name of a tool from tools/list',
};

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `a${typeof value === 'object' || typeof value === 'undefined' ? 'n' : ''} ${typeof value}`);

const valueAt = (given: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined), given);

/** The words of the first thing wrong with a request's params, or undefined when the SDK will take it. */
export function malformedParams(message: JSONRPCMessage): string | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const schema = REQUESTS[message.method as keyof typeof REQUESTS] as (typeof REQUESTS)[keyof typeof REQUESTS] | undefined;
  if (!schema) return undefined;
  const parsed = schema.safeParse(message);
  if (parsed.success) return undefined;
  const [issue] = parsed.error.issues;
  if (!issue) return `${message.method}: the params are invalid`;
  // The params are what a client writes: a path is said from inside them (`arguments`, not `params.arguments`).
  const path = issue.path[0] === 'params' ? issue.path.slice(1) : issue.path;
  const at = path.length > 0 ? path.map(String).join('.') : 'params';
  const meaning = MEANING[at] !== undefined ? ` (${MEANING[at]})` : '';
  if (issue.code === 'invalid_type') {
    const expected = issue.expected === 'record' ? 'object' : issue.expected;
    return `${message.method}: ${at} must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}${meaning}, got ${kindOf(valueAt(message, issue.path))}`;
  }
  return `${message.method}: ${at}${meaning}: ${issue.message}`;
}
