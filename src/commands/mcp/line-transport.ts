// The stdio transport of `pushctl mcp`: one JSON-RPC message per line, as the SDK's StdioServerTransport reads
// them, with one difference that matters. The SDK's reader closes the whole connection when a line outgrows its
// buffer (10 MiB): the server then ended with exit 0, a send in flight went on with no one to tell, and its
// answer and every later request were lost. Here a line over the cap is skipped to its end and reported
// (onoversized) with what its first and last bytes say of it, so that request alone is refused
// (docs/behaviour.md#mcp). Chunks of a long line are kept in a list and joined once, not copied on each read.
import type { Readable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';

/** The most one message may hold: a 4 MiB message and a few hundred thousand client IDs beside it. */
export const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/** How much of an oversized line's start and end is kept, to tell which request it was. */
const EDGE_BYTES = 512;

/** A line too long to read: its size, and the request it carried as far as its edges tell. */
export interface OversizedRequest {
  bytes: number;
  /** The cap it went over. */
  maxBytes: number;
  id?: RequestId;
  method?: string;
  /** The tool a tools/call named. */
  tool?: string;
}

/** What the start and end of a JSON-RPC request say of it. Clients put `method` and a call's `name` first, the id first or last. */
export function describeEdges(head: string, tail: string, bytes: number, maxBytes: number): OversizedRequest {
  const method = /"method"\s*:\s*"([^"\\]{1,64})"/.exec(head)?.[1];
  const tool = /"params"\s*:\s*\{\s*"name"\s*:\s*"([^"\\]{1,128})"/.exec(head)?.[1];
  const id = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,128}")/.exec(head)?.[1] ?? /"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,128}")\s*\}\s*$/.exec(tail)?.[1];
  return { bytes, maxBytes, ...(id !== undefined ? { id: JSON.parse(id) as RequestId } : {}), ...(method !== undefined ? { method } : {}), ...(tool !== undefined ? { tool } : {}) };
}

/** The line being read: its pieces, or once over the cap only its edges and its size. */
class PendingLine {
  private pieces: Buffer[] = [];
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);
  private bytes = 0;
  private skipping = false;

  constructor(private readonly maxBytes: number) {}

  add(piece: Buffer): void {
    this.bytes += piece.length;
    if (this.head.length < EDGE_BYTES) this.head = Buffer.concat([this.head, piece.subarray(0, EDGE_BYTES - this.head.length)]);
    this.tail = Buffer.concat([this.tail, piece]).subarray(-EDGE_BYTES);
    if (this.skipping) return;
    if (this.bytes > this.maxBytes) {
      this.skipping = true;
      this.pieces = [];
    } else this.pieces.push(piece);
  }

  /** The whole line, or what its edges tell when it was too long; the next line starts afresh. */
  end(): { line: string } | { oversized: OversizedRequest } {
    const done = this.skipping ? { oversized: describeEdges(this.head.toString('utf8'), this.tail.toString('utf8'), this.bytes, this.maxBytes) } : { line: Buffer.concat(this.pieces).toString('utf8').replace(/\r$/, '') };
    this.pieces = [];
    this.head = Buffer.alloc(0);
    this.tail = Buffer.alloc(0);
    this.bytes = 0;
    this.skipping = false;
    return done;
  }
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** A line over the cap was skipped: the server answers that request, if it can tell which it was. */
  onoversized?: (request: OversizedRequest) => void;
  private readonly pending: PendingLine;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: NodeJS.WritableStream,
    maxBytes = MAX_REQUEST_BYTES,
  ) {
    this.pending = new PendingLine(maxBytes);
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let newline = data.indexOf(10); newline !== -1; newline = data.indexOf(10)) {
      this.pending.add(data.subarray(0, newline));
      this.deliver(this.pending.end());
      data = data.subarray(newline + 1);
    }
    if (data.length > 0) this.pending.add(data);
  };

  private readonly onStreamError = (error: Error): void => this.onerror?.(error);

  /**
   * The client stopped reading (EPIPE: it exited, or closed its end): an answer can no longer reach it. Said
   * once, and every later write dropped, so that a send in flight goes on to its end and its journal closes
   * as when the client closes stdin. An unhandled stream error crashed the server mid-send (a killed run).
   */
  private gone = false;
  private readonly onWriteError = (error: Error): void => {
    if (this.gone) return;
    this.gone = true;
    this.onerror?.(new Error(`the client stopped reading (${(error as NodeJS.ErrnoException).code ?? error.message}): answers from now on go nowhere`));
  };

  private deliver(done: ReturnType<PendingLine['end']>): void {
    if ('oversized' in done) return this.onoversized?.(done.oversized);
    if (done.line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(done.line);
    } catch (error) {
      // As the SDK's transport does: the client's mistake is reported, and the next line is read.
      return this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    this.onmessage?.(message);
  }

  start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
    this.stdout.on('error', this.onWriteError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.gone) return Promise.resolve();
    return new Promise((resolve) => {
      // A write that fails resolves too: the error is onWriteError's to report.
      if (this.stdout.write(serializeMessage(message), () => resolve())) resolve();
    });
  }

  close(): Promise<void> {
    // stdout's error listener stays: a write already under way may still fail after the close.
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.onclose?.();
    return Promise.resolve();
  }
}
