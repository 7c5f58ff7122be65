// The floor of `pushctl send`'s start-up: a bare Node.js script, none of pushctl's code, making the same
// single POST to the emulator and printing the answer. What it costs above `node -e 0` (loading node:http
// and node:net, the process's stdio streams, one cold request) any Node.js CLI that sends one request pays.
// CommonJS, as pushctl's entry is. Usage: node bench/one-request.cjs <base-url> <app-id> <secret>
'use strict';
const http = require('node:http');

const [baseUrl, appId, secret] = process.argv.slice(2);
const body = JSON.stringify({ type: 1, time_to_live: 3600, condition: { type: 2, client_ids: ['bench-client-1'] }, notification: { title: 'Hi', desc: 'bench' } });
process.stderr.write(`sending to ${baseUrl}\n`);
const req = http.request(new URL(`/v1/message/push/${encodeURIComponent(appId)}`, baseUrl), {
  method: 'POST',
  agent: new http.Agent({ keepAlive: true }),
  headers: { Authorization: secret, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
});
req.on('response', (res) => {
  const chunks = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', () => {
    const answer = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    process.stdout.write(`${answer.result?.message_id ?? JSON.stringify(answer)}\n`);
    process.exitCode = res.statusCode === 200 ? 0 : 1;
    req.socket?.destroy();
  });
});
req.on('error', (error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
req.end(body);
