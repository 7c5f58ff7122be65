import { describe, expect, it } from 'vitest';
import { cutForDisplay, DESC_DISPLAY_CHARS, TITLE_DISPLAY_CHARS } from '../../../src/message/display-limits.js';

describe('what a notification shade shows', () => {
  it('text within the limit is shown whole', () => {
    expect(cutForDisplay('x'.repeat(TITLE_DISPLAY_CHARS), TITLE_DISPLAY_CHARS)).toEqual({ shown: 'x'.repeat(TITLE_DISPLAY_CHARS), cut: false, length: TITLE_DISPLAY_CHARS });
  });

  it('longer text is cut to the limit, "…" included', () => {
    const { shown, cut, length } = cutForDisplay('y'.repeat(5000), DESC_DISPLAY_CHARS);
    expect([cut, length, Array.from(shown).length, shown.endsWith('…')]).toEqual([true, 5000, DESC_DISPLAY_CHARS, true]);
  });

  it('counts code points, so an emoji is never split into halves', () => {
    const { shown } = cutForDisplay('😀'.repeat(60), TITLE_DISPLAY_CHARS);
    expect(shown).toBe(`${'😀'.repeat(TITLE_DISPLAY_CHARS - 1)}…`);
  });
});
