// docs/behaviour.md#targets and #performance: two targets of 100,000 IDs each (`--profile global,india`), each
// at its own `pushctl serve --rate 50 --chaos latency=300-400ms`, send side by side, each under its own rate
// limiter: the send phase of both (first request of either to the last answer of either, seen by a relay in
// front of each emulator) within 1.2x that of one target alone, measured here the same way.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const IDS = 100_000;
const CHAOS = ['--rate', '50', '--chaos', 'latency=300-400ms'];
const REGIONS = ['global', 'india'];

export const name = '2 targets × 100k IDs @ 50/s, 300–400 ms';
export const target = 'send phase ≤ 1.2 × one target alone';

/** The send phase of the relays: the first request through any to the last answer back through any. */
const span = (relays) => Math.max(...relays.map((r) => r.seen.lastAnswerAt)) - Math.min(...relays.map((r) => r.seen.firstRequestAt));

async function accepted(r) {
  try {
    return JSON.parse(r.stdout).summary?.recipients?.accepted;
  } catch {
    throw new Error(`send exited ${r.code ?? r.signal} with no JSON: ${r.stderr.slice(-600)}`);
  }
}

export async function measure(h) {
  const file = await h.ids(IDS);
  const send = ['send', '--client-ids-file', file, '--title', 'Hi', '--desc', 'bench', '--json'];

  const alone = await h.relay((await h.serve(CHAOS)).url);
  const one = await h.pushctl([...send, '--base-url', alone.url, '--app-id', 'demo-app'], { timeoutMs: 150_000 });
  const oneAccepted = await accepted(one);
  const oneMs = span([alone]);

  // Each region's emulator behind its own relay; each profile's secret in its own variable.
  const relays = [];
  const profiles = {};
  for (const region of REGIONS) {
    const relay = await h.relay((await h.serve(CHAOS)).url);
    relays.push(relay);
    profiles[region] = { appId: 'demo-app', baseUrl: relay.url };
  }
  const config = join(h.tmp, 'targets.pushctl.json');
  writeFileSync(config, JSON.stringify({ profiles }), { mode: 0o600 });
  const { PUSHCTL_APP_SECRET: secret, ...env } = h.env;
  const two = await h.pushctl([...send, '-c', config, '--profile', REGIONS.join(',')], { timeoutMs: 150_000, env: { ...env, PUSHCTL_APP_SECRET_GLOBAL: secret, PUSHCTL_APP_SECRET_INDIA: secret } });
  const twoAccepted = await accepted(two);
  const twoMs = span(relays);

  const ratio = twoMs / oneMs;
  const pass = ratio <= 1.2 && one.code === 0 && two.code === 0 && oneAccepted === IDS && twoAccepted === 2 * IDS;
  return {
    measured: `${(twoMs / 1000).toFixed(2)} s for two targets vs ${(oneMs / 1000).toFixed(2)} s for one (${ratio.toFixed(2)}x), exit ${two.code}, ${twoAccepted ?? '?'}/${2 * IDS} accepted`,
    pass,
    value: ratio,
    details: { one_ms: oneMs, two_ms: twoMs, one_exit: one.code, two_exit: two.code },
  };
}
