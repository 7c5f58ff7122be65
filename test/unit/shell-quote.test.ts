// shellQuote's words, run through real POSIX shells (dash, and bash): each comes back byte for byte, and the
// quoted text holds no control or format character (a bidi override would make the command read differently).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shellQuote } from '../../src/shell-quote.js';

const WORDS = [
  'plain',
  'two words',
  "it's",
  'invoice \u202Etxt.exe\u0007 done',
  '-\u202Estarts with a dash',
  '100% \\n not a newline \u200B',
  'ends in line feeds \u2066\n\n',
  'line\nfeed and\ttab',
  'escape \u001b[31m red',
];

describe('shellQuote', () => {
  for (const shell of ['/usr/bin/dash', '/usr/bin/bash'].filter(existsSync)) {
    it(`gives every word back as it was through ${shell}`, () => {
      const script = `for w in ${WORDS.map(shellQuote).join(' ')}; do printf '%s\\0' "$w"; done`;
      expect(execFileSync(shell, ['-c', script], { encoding: 'utf8' }).split('\0').slice(0, -1)).toEqual(WORDS);
    });
  }

  it('writes no control or format character but tab and line feed', () => {
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    for (const word of WORDS) expect(shellQuote(word)).not.toMatch(/[\0-\x08\x0B-\x1F\x7F-\x9F\p{Cf}]/u);
  });
});
