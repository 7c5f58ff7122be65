// The MCP server of `pushctl mcp` on stdio: the SDK's Server, with tools/list and tools/call handed to
// handlers.ts. A malformed message is logged on stderr and the server reads on. It ends when the client
// closes stdin, once what was asked is answered.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../../version.js';
import { extendCtx, withInterrupt, type Ctx } from '../../context.js';
import type { ToolCall } from './tool.js';
import { LineTransport, type OversizedRequest } from './line-transport.js';
import { malformedParams } from './request-params.js';

/** The tools and what runs them load on the first request that needs them (see handlers.ts). */
let handlers: Promise<typeof import('./handlers.js')> | undefined;
const loadHandlers = () => (handlers ??= import('./handlers.js'));

const INSTRUCTIONS =
  'pushctl sends push messages through the Push Message Service. Check a message with validate_message, have the service check it with dry_run (nothing is delivered), then send it with send_message where offered. Every run is journaled: list_runs and show_run read them; list_inbox shows what an emulator received.';

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

/**
 * The call as the client can cancel it (notifications/cancelled): the SDK aborts the request's signal, and a
 * send then stops as the CLI's does on Ctrl-C, no new request, those in flight answered, the run journaled as
 * interrupted, so list_runs and show_run say what it left. Without this a cancelled send went on to the end.
 */
function cancellable(call: ToolCall, cancelled: AbortSignal): ToolCall {
  return { ...call, ctx: withInterrupt(call.ctx, AbortSignal.any([call.ctx.interrupt, cancelled])) };
}

type CallExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

/**
 * A send tells a client that gave a progressToken how far it got, batch by batch (notifications/progress).
 * Without it a send longer than the client's request timeout (60 s in the SDK's client) was cancelled by the
 * client half-way; a client that resets its timeout on progress now waits for the end. Progress only grows,
 * as the protocol asks: it counts batches done, of every target of a profile list.
 */
function reportingProgress(call: ToolCall, token: string | number | undefined, extra: CallExtra): ToolCall {
  if (token === undefined) return call;
  let done = 0;
  const onProgress: NonNullable<Ctx['onProgress']> = (p) => {
    done += 1;
    const total = p.planComplete && p.batchesTotal >= done ? { total: p.batchesTotal } : {};
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, ...total, message: call.scrubber.scrub(p.line) } }).catch(() => {});
  };
  return { ...call, ctx: extendCtx(call.ctx, { onProgress }) };
}

export function createServer(call: ToolCall, inFlight = new InFlight()): Server {
  const server = new Server({ name: 'pushctl', title: 'pushctl', version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => inFlight.track(loadHandlers().then(async ({ listTools }) => ({ tools: await listTools(call) }))));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const { name, arguments: given } = request.params;
    return inFlight.track(
      loadHandlers().then(async ({ callTool }) => {
        const result = await callTool(name, given, reportingProgress(cancellable(call, extra.signal), request.params._meta?.progressToken, extra));
        if (!('unknown' in result)) return result;
        // No such tool is the client's mistake in the protocol, not a tool's failure.
        // It repeats the name the client sent, which goes out as a protocol error: scrubbed as a result is.
        throw new McpError(ErrorCode.InvalidParams, call.scrubber.scrub(`unknown tool "${name}"${result.near ? ` (did you mean "${result.near}"?)` : ''}: see tools/list`));
      }),
    );
  });
  // A line that is not JSON-RPC is the client's mistake: say so on stderr, and read on.
  server.onerror = (error) => call.ctx.stderr.write(`pushctl mcp: ${error.message}\n`);
  return server;
}

/**
 * A request too long to read is answered alone (docs/behaviour.md#mcp): a tools/call with a tool error that says
 * how to send less, any other request with a protocol error; one whose id cannot be told is only logged.
 */
function refuseOversized(request: OversizedRequest, call: ToolCall, transport: LineTransport): Promise<void> {
  return loadHandlers().then(async ({ oversizedAnswer }) => {
    const { log, answer } = oversizedAnswer(request, call);
    call.ctx.stderr.write(`pushctl mcp: ${log}\n`);
    if (request.id === undefined) return;
    await transport.send(
      'result' in answer
        ? { jsonrpc: '2.0', id: request.id, result: answer.result }
        : { jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InvalidRequest, message: answer.error } },
    );
  });
}

/**
 * A request whose params the SDK would refuse with its schema's dump is refused here in words (-32602, naming the
 * param: request-params.ts); every other message goes on to the SDK as it came.
 */
function refusingMalformed(transport: LineTransport, call: ToolCall): void {
  const forward = transport.onmessage;
  transport.onmessage = (message) => {
    const wrong = 'id' in message && 'method' in message ? malformedParams(message) : undefined;
    if (wrong === undefined || !('id' in message)) return forward?.(message);
    call.ctx.stderr.write(`pushctl mcp: ${call.scrubber.scrub(wrong)}\n`);
    void transport.send({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: call.scrubber.scrub(wrong) } });
  };
}

/** Serves until the client closes stdin or a signal stops it, once the requests asked are answered. */
export async function serveStdio(call: ToolCall, stdout: NodeJS.WritableStream): Promise<void> {
  const inFlight = new InFlight();
  const server = createServer(call, inFlight);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  const stdin = call.ctx.stdin;
  // A handler's answer is written a turn after its promise settles: close after that turn.
  const closeWhenAnswered = () => void inFlight.settled().then(() => new Promise((resolve) => setImmediate(resolve))).then(() => server.close());
  stdin.once('end', closeWhenAnswered);
  // SIGINT, SIGTERM or SIGHUP (a client giving up on us): a send in flight stops as the CLI's does, journaled,
  // its answer goes out, and the server ends.
  call.ctx.interrupt.addEventListener('abort', closeWhenAnswered, { once: true });
  // While the client reads the answer to initialize, load the tools it will ask for next (a failure to load
  // is reported by the request that needs them).
  server.oninitialized = () => void loadHandlers().catch(() => {});
  const transport = new LineTransport(stdin, stdout);
  transport.onoversized = (request) => void inFlight.track(refuseOversized(request, call, transport)).catch((error: unknown) => server.onerror?.(error instanceof Error ? error : new Error(String(error))));
  await server.connect(transport);
  refusingMalformed(transport, call);
  call.ctx.stderr.write(`pushctl mcp ${VERSION}: serving on stdio${call.options.allowSend ? ' (send_message offered: --allow-send)' : ''}\n`);
  await closed;
}
