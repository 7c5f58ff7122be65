/// <reference lib="dom" />
// Entries that arrived while the page was open are unread until clicked, and the tab's title counts them
// ("(3) pushctl inbox"), so a push that lands in a background tab is seen from the tab bar.
const TITLE = 'pushctl inbox';
const unread = new Set<string>();

function showTitle(): void {
  document.title = unread.size > 0 ? `(${unread.size}) ${TITLE}` : TITLE;
}

/** Marks a card that arrived live as unread; clicking it (or anything in it) reads it. */
export function markUnread(article: HTMLElement): void {
  const seq = article.dataset.seq!;
  unread.add(seq);
  article.classList.add('unread');
  // On click, not pointerdown: the "new" mark goes with it, which can reflow the card (its top line no longer
  // wraps), and a button that moved between pointerdown and pointerup never got its click.
  article.addEventListener('click', () => read(seq, article), { once: true });
  showTitle();
}

export function read(seq: string, article?: Element | null): void {
  article?.classList.remove('unread');
  if (unread.delete(seq)) showTitle();
}

/** The list was cleared or reloaded: nothing it showed before is waiting to be read. */
export function forgetUnread(): void {
  unread.clear();
  showTitle();
}
