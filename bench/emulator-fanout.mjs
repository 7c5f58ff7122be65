#!/usr/bin/env node
// docs/behaviour.md#performance, the emulator's event stream: 1,000 open readers slow pushes by at most 2x (an entry is
// serialised once, not once per reader), and a reader that never reads adds at most 32 MiB.
//
//   node bench/emulator-fanout.mjs [--root <other checkout>]   # needs a fresh `npm run build`
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { figure, getJson, MiB, median, pushMany, ROOT, startServe, thousandIds } from './emulator-harness.mjs';

const { values: args } = parseArgs({ options: { root: { type: 'string', default: ROOT }, pushes: { type: 'string', default: '3000' } } });
const PUSHES = Number(args.pushes);
const READERS = 1000;
const VALID = { type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'Hello', desc: 'World' } };
const ROUNDS = 5;
// The readers are raw sockets that read everything they are sent as it arrives, into one reused buffer, and
// discard it: the figure is the emulator's cost of 1,000 readers. An HTTP client parsing 1,000 streams on the
// same two cores took more CPU than the emulator itself (2.2-2.6 s against 2.0-2.4 s for 3,000 pushes) and
// measured the bench's own readers instead.
const READERS_SCRIPT = `
import { connect } from 'node:net';
const [url, count] = process.argv.slice(1);
const { port } = new URL(url);
const buffer = Buffer.alloc(256 * 1024);
for (let i = 0; i < Number(count); i++) {
  await new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: '127.0.0.1', onread: { buffer, callback: () => (resolve(), true) } });
    socket.write('GET /v1/emulator/events HTTP/1.1\\r\\nHost: 127.0.0.1:' + port + '\\r\\n\\r\\n');
    socket.on('error', reject);
  });
}
process.stdout.write('ready\\n');
`;
const deadline = setTimeout(() => (process.stderr.write('emulator-fanout: gave up after 300 s\n'), process.exit(1)), 300_000);
deadline.unref();

// 1. Readers: the same pushes without and with 1,000 readers that read everything, in turns (ROUNDS of each on
// one emulator), so that a busy moment of the machine does not fall on one side only.
{
  const emu = await startServe([], args.root);
  await pushMany(emu.url, 300, 8, () => VALID);
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    let cpu = emu.cpu();
    const without = await pushMany(emu.url, PUSHES, 8, () => VALID);
    const cpuWithout = emu.cpu() - cpu;
    // The readers live in a process of their own, as browsers would: reading 1,000 sockets must not slow the
    // pushes' own client.
    const readers = spawn(process.execPath, ['--input-type=module', '-e', READERS_SCRIPT, emu.url, String(READERS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve, reject) => {
      readers.stdout.once('data', resolve);
      readers.once('exit', (code) => reject(new Error(`the readers exited with ${code}`)));
    });
    cpu = emu.cpu();
    const withReaders = await pushMany(emu.url, PUSHES, 8, () => VALID);
    const cpuWith = emu.cpu() - cpu;
    const open = (await getJson(`${emu.url}/v1/emulator/health`)).event_streams?.readers;
    if (open !== undefined && open !== READERS) throw new Error(`${open} readers were open, not ${READERS}`);
    readers.removeAllListeners('exit');
    readers.kill('SIGKILL');
    // The next round starts without readers.
    while ((await getJson(`${emu.url}/v1/emulator/health`)).event_streams?.readers > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    rounds.push({ ratio: withReaders.seconds / without.seconds, without, withReaders, cpuWithout, cpuWith });
  }
  await emu.stop();
  const sorted = [...rounds].sort((a, b) => a.ratio - b.ratio);
  const mid = sorted[Math.floor((sorted.length - 1) / 2)];
  const { ratio, without, withReaders, cpuWithout, cpuWith } = mid;
  figure(
    `${READERS.toLocaleString('en')} event-stream readers slow pushes by`,
    `${ratio.toFixed(2)}x, median of ${ROUNDS} rounds (${sorted.map((r) => r.ratio.toFixed(2)).join(', ')}; ${PUSHES} pushes: ${without.seconds.toFixed(2)} s alone, ${withReaders.seconds.toFixed(2)} s with readers; median push ${median(without.times).toFixed(1)} → ${median(withReaders.times).toFixed(1)} ms; emulator CPU ${cpuWithout.toFixed(2)} → ${cpuWith.toFixed(2)} s)`,
    '≤ 2x',
    ratio <= 2,
  );
}

// 2. A stalled reader: peak RSS of the same 1000-ID pushes with and without a reader that never reads.
const STALL_PUSHES = 6000;
async function peakWith(stalled) {
  const emu = await startServe(['--keep-mb', '96'], args.root);
  let socket;
  if (stalled) {
    const { port } = new URL(emu.url);
    socket = connect(Number(port), '127.0.0.1');
    socket.write(`GET /v1/emulator/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    await new Promise((resolve) => socket.once('data', resolve));
    socket.pause();
  }
  await pushMany(emu.url, STALL_PUSHES, 16, (n) => ({ ...VALID, condition: { type: 2, client_ids: thousandIds(n) } }));
  const health = await getJson(`${emu.url}/v1/emulator/health`);
  const { peak } = emu.memory();
  socket?.destroy();
  await emu.stop();
  return { peak, buffered: health.event_streams?.buffered_bytes };
}
const alone = await peakWith(false);
const stalled = await peakWith(true);
const added = stalled.peak - alone.peak;
figure(
  'a reader that never reads adds',
  `${added.toFixed(1)} MiB of peak RSS (${STALL_PUSHES} pushes of 1000 IDs: ${alone.peak.toFixed(0)} MiB alone, ${stalled.peak.toFixed(0)} MiB with it${stalled.buffered === undefined ? '' : `; ${(stalled.buffered / MiB).toFixed(1)} MiB waiting for it`})`,
  '≤ 32 MiB',
  added <= 32,
);
process.exit(0);
