// Figures measured by a stand-alone script (bench/emulator-fanout.mjs, bench/emulator-memory.mjs), which
// prints one line per figure: `figure <name>: <measured> … target <target> … PASS|MISS`. The script runs
// once per Node.js (h.once), on that Node.js; each figure file reads its own line.
import { join } from 'node:path';

export function scriptFigure(script, namePrefix) {
  return async (h) => {
    const r = await h.once(`script-${script}`, () => h.run(h.node, [join(h.ROOT, 'bench', script)], { timeoutMs: 310_000 }));
    const line = r.stdout.split('\n').find((l) => l.startsWith(`figure ${namePrefix}`));
    if (!line) throw new Error(`bench/${script} printed no "${namePrefix}" figure (exit ${r.code ?? r.signal}): ${r.stderr.slice(-400)}`);
    const m = /^figure [^:]*: (.*) … target .* … (PASS|MISS)$/.exec(line);
    return { measured: m ? m[1] : line, pass: m ? m[2] === 'PASS' : undefined };
  };
}
