#!/usr/bin/env node
// docs/behaviour.md#performance, the emulator's memory and its fleet: RSS within --keep-mb + 64 MiB under 1000-ID pushes
// and with --fleet 1000000, and an --all push to a 1,000,000-device fleet answered within 50 ms.
//
//   node bench/emulator-memory.mjs [--root <other checkout>]   # needs a fresh `npm run build`
import { parseArgs } from 'node:util';
import { figure, median, push, pushMany, ROOT, startServe, thousandIds } from './emulator-harness.mjs';

const { values: args } = parseArgs({ options: { root: { type: 'string', default: ROOT }, pushes: { type: 'string', default: '10000' } } });
const KEEP_MB = 96;
const LIMIT = KEEP_MB + 64;
const PUSHES = Number(args.pushes);
const VALID = { type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'Hello', desc: 'World' } };
const deadline = setTimeout(() => (process.stderr.write('emulator-memory: gave up after 300 s\n'), process.exit(1)), 300_000);
deadline.unref();

// 1. 1000-ID pushes, no fleet.
{
  const emu = await startServe(['--keep-mb', String(KEEP_MB)], args.root);
  const run = await pushMany(emu.url, PUSHES, 16, (n) => ({ ...VALID, condition: { type: 2, client_ids: thousandIds(n) } }));
  const { peak } = emu.memory();
  await emu.stop();
  figure(`emulator peak RSS, --keep-mb ${KEEP_MB}, ${PUSHES.toLocaleString('en')} pushes of 1000 IDs`, `${peak.toFixed(0)} MiB (${(PUSHES / run.seconds).toFixed(0)} pushes/s)`, `≤ ${LIMIT} MiB`, peak <= LIMIT);
}

// 2. --fleet 1000000: --all pushes, then 1000-ID pushes to the fleet's own devices.
{
  const emu = await startServe(['--keep-mb', String(KEEP_MB), '--fleet', '1000000'], args.root);
  const atStart = emu.memory().rss;
  const all = [];
  for (let i = 0; i < 200; i++) {
    const { status, ms } = await push(emu.url, VALID);
    if (status !== 200) throw new Error(`--all push answered ${status}`);
    all.push(ms);
  }
  const ids = (n) => Array.from({ length: 1000 }, (_, i) => `device-${String(((n * 1000 + i) % 1_000_000) + 1).padStart(7, '0')}`);
  await pushMany(emu.url, PUSHES / 2, 16, (n) => ({ ...VALID, condition: { type: 2, client_ids: ids(n) } }));
  const { peak } = emu.memory();
  await emu.stop();
  figure('--all push to 1,000,000 devices answers in', `${median(all).toFixed(1)} ms median, ${Math.max(...all).toFixed(1)} ms worst of ${all.length}`, '≤ 50 ms', median(all) <= 50);
  figure(`emulator peak RSS, --keep-mb ${KEEP_MB} --fleet 1000000 (200 --all pushes, ${(PUSHES / 2).toLocaleString('en')} of 1000 device IDs)`, `${peak.toFixed(0)} MiB (${atStart.toFixed(0)} MiB once started)`, `≤ ${LIMIT} MiB`, peak <= LIMIT);
}
process.exit(0);
