// What the page's address says (issue 22): the filters and search live in the query string, so a reload or a
// shared link shows the same list, and a message has its permalink `#/m/<message_id>`. Pure: strings in,
// strings out.

export const FILTER_NAMES = ['app', 'kind', 'outcome', 'q'] as const;
export type FilterName = (typeof FILTER_NAMES)[number];
export type Filters = Record<FilterName, string>;

const KINDS = new Set(['', 'notification', 'data']);
const OUTCOMES = new Set(['', 'accepted', 'dry_run', 'rejected', 'chaos']);

/** The filters a query string holds; a value the page has no option for reads as no filter. */
export function filtersFromSearch(search: string): Filters {
  const params = new URLSearchParams(search);
  const value = (name: FilterName) => params.get(name) ?? '';
  return {
    app: value('app'),
    kind: KINDS.has(value('kind')) ? value('kind') : '',
    outcome: OUTCOMES.has(value('outcome')) ? value('outcome') : '',
    q: value('q'),
  };
}

/** The query string of the filters (`?outcome=rejected&q=sale`), empty when none is set. */
export function searchFromFilters(filters: Filters): string {
  const params = new URLSearchParams();
  for (const name of FILTER_NAMES) if (filters[name] !== '') params.set(name, filters[name]);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export const isFiltered = (filters: Filters): boolean => FILTER_NAMES.some((name) => filters[name] !== '');

/** The message a hash points at (`#/m/emu-1234` → `emu-1234`), or undefined for the list. */
export function messageIdFromHash(hash: string): string | undefined {
  const match = /^#\/m\/(.+)$/.exec(hash);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1];
  }
}

export const hashOfMessage = (messageId: string): string => `#/m/${encodeURIComponent(messageId)}`;

/** The header's count: what the filter shows, out of everything answered. */
export function countLabel(shown: number, total: number, filtered: boolean): string {
  const requests = (n: number) => `${n.toLocaleString('en-US')} request${n === 1 ? '' : 's'}`;
  return filtered ? `${shown.toLocaleString('en-US')} of ${requests(total)} match` : requests(total);
}
