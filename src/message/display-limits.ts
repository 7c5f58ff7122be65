// How much of a notification's title and text a phone's notification shade shows before it cuts them: the
// one place for these figures, read by the CLI's warning and by the inbox page's preview.
//
// The service's document sets no length, so the figures come from the shade itself. Android draws the title
// on one line and ends it with "…"; on a 360 dp wide phone at the default font size that line holds about
// 40 to 50 Latin characters, so 50 is where a title is surely cut. The text is one line when collapsed and,
// expanded, a few lines more (the big-text style shows about six lines): past about 240 characters it is cut
// on every phone. Characters are counted as code points; wide scripts (Chinese, Japanese, Korean) are cut
// sooner, so the figures are an upper bound, not a promise.

/** Characters of `notification.title` a notification shade shows on one line. */
export const TITLE_DISPLAY_CHARS = 50;
/** Characters of `notification.desc` a notification shade shows, expanded. */
export const DESC_DISPLAY_CHARS = 240;

export const DISPLAY_LIMITS = { title: TITLE_DISPLAY_CHARS, desc: DESC_DISPLAY_CHARS } as const;

/** The text as the shade would show it: the first `limit` code points and "…", or the whole text. */
export function cutForDisplay(text: string, limit: number): { shown: string; cut: boolean; length: number } {
  const points = Array.from(text);
  if (points.length <= limit) return { shown: text, cut: false, length: points.length };
  return { shown: `${points.slice(0, limit - 1).join('')}…`, cut: true, length: points.length };
}
