import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_SECRET_LENGTH, redact, SecretScrubber } from '../../../src/output/redact.js';

/** Everything `text` becomes when written to a scrubbing sink in the given pieces, then flushed. */
function throughSink(scrubber: SecretScrubber, pieces: readonly string[]): string {
  let out = '';
  const sink = scrubber.wrap({ write: (chunk: string) => (out += chunk) });
  for (const piece of pieces) sink.write(piece);
  scrubber.flush();
  return out;
}

/** Cuts `text` at the given positions (any order, duplicates allowed). */
function cut(text: string, at: readonly number[]): string[] {
  const points = [...new Set(at.map((n) => n % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const p of points) {
    pieces.push(text.slice(from, p));
    from = p;
  }
  pieces.push(text.slice(from));
  return pieces;
}

const scrubberOf = (secrets: readonly string[]) => {
  const scrubber = new SecretScrubber();
  for (const s of secrets) scrubber.add(s);
  return scrubber;
};

describe('redact', () => {
  it('masks a secret that begins another whole: no tail of the longer one is left', () => {
    expect(redact('token=abcdef', ['abc', 'abcdef'])).toBe('token=***');
    expect(redact('token=abcdef', ['abcdef', 'abc'])).toBe('token=***');
    expect(redact('x abc y abcdef z', ['abc', 'abcdef'])).toBe('x *** y *** z');
  });

  it('masks overlapping occurrences as one stretch', () => {
    expect(redact('ababab', ['abab'])).toBe('***');
    expect(redact('xabcdy', ['abc', 'bcd'])).toBe('x***y');
  });
});

describe('SecretScrubber streams', () => {
  it('catches a secret split across two writes', () => {
    expect(throughSink(scrubberOf(['S3CRET-token']), ['Authorization: S3CR', 'ET-token\n'])).toBe('Authorization: ***\n');
  });

  it('holds back only a possible start of a secret: a line that cannot be one goes out at once', () => {
    const scrubber = scrubberOf(['S3CRET-token']);
    const written: string[] = [];
    const sink = scrubber.wrap({ write: (chunk: string) => written.push(chunk) });
    sink.write('batches 1/10\r');
    expect(written).toEqual(['batches 1/10\r']);
    sink.write('half S3CR');
    expect(written).toEqual(['batches 1/10\r', 'half ']);
    sink.write('ISP apples\n');
    expect(written.join('')).toBe('batches 1/10\rhalf S3CRISP apples\n');
    // What a run ends on is written by flush, scrubbed.
    sink.write('ends S3CRET-tok');
    scrubber.flush();
    expect(written.join('')).toBe('batches 1/10\rhalf S3CRISP apples\nends S3CRET-tok');
  });

  it('does not mask a secret of one or two characters, and says so once', () => {
    const warnings: string[] = [];
    const scrubber = new SecretScrubber((line) => warnings.push(line));
    scrubber.add('ab', 'PUSHCTL_APP_SECRET');
    scrubber.add('ab', 'PUSHCTL_APP_SECRET');
    expect(scrubber.scrub('a cab on a slab')).toBe('a cab on a slab');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^PUSHCTL_APP_SECRET is only 2 characters long: too short to mask/);
    expect(warnings[0]).not.toContain('ab ');
  });

  it("does not mask the emulator's published demo secret", () => {
    const scrubber = scrubberOf(['demo-secret']);
    expect(scrubber.scrub('Try it: PUSHCTL_APP_SECRET=demo-secret pushctl send')).toBe('Try it: PUSHCTL_APP_SECRET=demo-secret pushctl send');
  });
});

describe('redaction properties', () => {
  // Secrets and text share a small alphabet, so prefixes, overlaps and near-misses are common.
  const sharedChar = fc.constantFrom('a', 'b', 'c', 'd', '=', ' ', '\n');
  const secretArb = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), minLength: MIN_SECRET_LENGTH, maxLength: 8 });
  const chunking = fc.array(fc.nat({ max: 200 }), { maxLength: 12 });

  it('any secrets, any text, any chunking: no secret in the output, and chunking changes nothing', () => {
    fc.assert(
      fc.property(fc.array(secretArb, { minLength: 1, maxLength: 4 }), fc.array(fc.oneof(fc.string({ unit: sharedChar, maxLength: 6 }), secretArb), { maxLength: 12 }), chunking, (secrets, parts, at) => {
        const text = parts.join('');
        const scrubber = scrubberOf(secrets);
        const out = throughSink(scrubber, cut(text, at));
        for (const secret of secrets) expect(out).not.toContain(secret);
        expect(out).toBe(scrubber.scrub(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('secrets among text of other letters: no secret, and no suffix of one longer than 2 characters, survives', () => {
    // The text around the secrets uses letters no secret has, so any secret letters in the output leaked.
    const filler = fc.string({ unit: fc.constantFrom('X', 'Y', '=', ' ', '\n', ':'), maxLength: 6 });
    fc.assert(
      fc.property(fc.array(secretArb, { minLength: 1, maxLength: 4 }), fc.array(fc.oneof(filler, fc.nat({ max: 3 })), { maxLength: 12 }), chunking, (secrets, parts, at) => {
        const text = parts.map((p) => (typeof p === 'number' ? secrets[p % secrets.length]! : p)).join('');
        const out = throughSink(scrubberOf(secrets), cut(text, at));
        for (const secret of secrets) {
          for (let i = 0; i <= secret.length - 3; i++) expect(out).not.toContain(secret.slice(i));
        }
      }),
      { numRuns: 2000 },
    );
  });
});
