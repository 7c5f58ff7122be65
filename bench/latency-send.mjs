// the throughput of docs/behaviour.md#performance at real latency: 100,000 client IDs sent with no tuning flags (no --rate, no
// --concurrency) to `pushctl serve --rate 50 --chaos <chaos>`, through a relay that sees the first request
// leave and the last answer come back: that span is the send phase. The 22001 answers are counted from the
// emulator's own request log (GET /v1/emulator/requests): the rate limit's (outcome "rejected") apart from
// the ones chaos made up (outcome "chaos").
export const LATENCY_IDS = 100_000;

export async function latencySend(h, chaos) {
  const file = await h.ids(LATENCY_IDS);
  const served = await h.serve(['--rate', '50', '--chaos', chaos]);
  const relay = await h.relay(served.url);
  const r = await h.pushctl(['send', '--base-url', relay.url, '--app-id', 'demo-app', '--client-ids-file', file, '--title', 'Hi', '--desc', 'bench', '--json'], { timeoutMs: 150_000 });
  let doc;
  try {
    doc = JSON.parse(r.stdout);
  } catch {
    throw new Error(`send exited ${r.code ?? r.signal} with no JSON: ${r.stderr.slice(-600)}`);
  }
  const accepted = doc.summary?.recipients?.accepted;
  return {
    sendPhaseMs: relay.seen.lastAnswerAt - relay.seen.firstRequestAt,
    wallMs: r.ms,
    exitCode: r.code,
    accepted,
    rateLimited: await count22001(served.url, 'rejected'),
    chaos22001: await count22001(served.url, 'chaos'),
  };
}

async function count22001(url, outcome) {
  let n = 0;
  let before;
  for (;;) {
    const page = await (await globalThis.fetch(`${url}/v1/emulator/requests?outcome=${outcome}&limit=500${before === undefined ? '' : `&before=${before}`}`)).json();
    n += page.entries.filter((entry) => entry.status === 22001).length;
    if (page.next_before === undefined || page.next_before === null || page.entries.length === 0) return n;
    before = page.next_before;
  }
}
