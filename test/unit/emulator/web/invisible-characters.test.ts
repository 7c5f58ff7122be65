import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeInvisibleInJson, hasInvisible, showInvisible, splitInvisible } from '../../../../src/emulator/web/invisible-characters.js';

const BIDI = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'];

describe('invisible characters are shown, never applied (issue 21)', () => {
  it('a right-to-left override is cut out of the text and named', () => {
    expect(splitInvisible('dev-\u202Egnp.exe')).toEqual([{ text: 'dev-' }, { code: 'U+202E', name: 'RIGHT-TO-LEFT OVERRIDE' }, { text: 'gnp.exe' }]);
    expect(showInvisible('dev-\u202Egnp.exe')).toBe('dev-<U+202E>gnp.exe');
  });

  it('every bidi control, zero-width character, byte-order mark, tag and C0/C1 control is caught', () => {
    for (const char of [...BIDI, '\u200B', '\u200C', '\u2060', '\uFEFF', '\u00AD', '\u{E0041}', '\u0007', '\u001B', '\u0085', '\u2028', '\u2029']) {
      expect(hasInvisible(`a${char}b`), `U+${char.codePointAt(0)!.toString(16)}`).toBe(true);
    }
  });

  it('ordinary text, right-to-left scripts, tabs, newlines and emoji joined by ZWJ are left alone', () => {
    for (const text of ['Hello, world', 'שלום עולם', 'مرحبا', 'line\nnext\tcol', '👩‍💻 and 👨‍👩‍👧', '❤️‍🔥', '中文 日本語']) expect(splitInvisible(text)).toEqual([{ text }]);
    // A joiner that joins no pictographs is shown.
    expect(showInvisible('a\u200Db')).toBe('a<U+200D>b');
  });

  it('no invisible character survives, and nothing is lost (any text)', () => {
    const anyText = fc.array(fc.oneof(fc.string(), fc.constantFrom(...BIDI, '\u200B', '\uFEFF', '\u{E0020}')), { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(anyText, (text) => {
        const shown = showInvisible(text);
        expect(hasInvisible(shown)).toBe(false);
        const parts = splitInvisible(text);
        for (const part of parts) if ('text' in part) expect(hasInvisible(part.text)).toBe(false);
        // Nothing is lost: the parts give back the text, character for character.
        expect(parts.map((p) => ('text' in p ? p.text : String.fromCodePoint(Number.parseInt(p.code.slice(2), 16)))).join('')).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('JSON copied with invisible characters escaped parses to the same value', () => {
    const value = { title: 'invoice-\u202Efdp.exe', tag: '\u{E0041}', ok: 'plain' };
    const json = JSON.stringify(value, null, 2);
    const escaped = escapeInvisibleInJson(json);
    expect(hasInvisible(escaped)).toBe(false);
    expect(escaped).toContain('invoice-\\u202efdp.exe');
    expect(JSON.parse(escaped)).toEqual(value);
  });
});
