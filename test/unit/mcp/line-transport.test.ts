// What the edges of a request too long to read tell of it: the server answers that request alone by its id.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { describeEdges, LineTransport, type OversizedRequest } from '../../../src/commands/mcp/line-transport.js';

describe('describeEdges', () => {
  it('finds the id at the end, where the SDK client puts it, and the method and tool at the start', () => {
    const head = '{"method":"tools/call","params":{"name":"send_message","arguments":{"clientId":["a","b"';
    expect(describeEdges(head, '"z"]}},"jsonrpc":"2.0","id":7}', 100, 10)).toEqual({ bytes: 100, maxBytes: 10, id: 7, method: 'tools/call', tool: 'send_message' });
  });

  it('finds an id written first, and a string id', () => {
    expect(describeEdges('{"jsonrpc":"2.0","id":"req-1","method":"tools/list"', '}', 50, 10)).toMatchObject({ id: 'req-1', method: 'tools/list' });
  });

  it('takes no id from inside the arguments', () => {
    expect(describeEdges('{"method":"tools/call","params":{"name":"x"', '"data":{"id":5}}}}', 50, 10).id).toBeUndefined();
  });
});

describe('LineTransport', () => {
  it('skips a line over the cap, reports it, and reads the next line whole', async () => {
    const stdin = new PassThrough();
    const transport = new LineTransport(stdin, new PassThrough(), 64);
    const messages: unknown[] = [];
    const oversized: OversizedRequest[] = [];
    transport.onmessage = (message) => messages.push(message);
    transport.onoversized = (request) => oversized.push(request);
    await transport.start();
    const long = JSON.stringify({ method: 'tools/call', params: { name: 'validate_message', arguments: { title: 'x'.repeat(200) } }, jsonrpc: '2.0', id: 3 });
    // In pieces, as a pipe delivers it: the cap is crossed in the middle of a chunk.
    stdin.write(long.slice(0, 40));
    stdin.write(`${long.slice(40)}\n{"jsonrpc":"2.0","id":4,"method":"ping"}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(oversized).toEqual([{ bytes: long.length, maxBytes: 64, id: 3, method: 'tools/call', tool: 'validate_message' }]);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 4, method: 'ping' }]);
  });
});
