import { describe, expect, it } from 'vitest';
import { countLabel, filtersFromSearch, hashOfMessage, isFiltered, messageIdFromHash, searchFromFilters } from '../../../../src/emulator/web/url-state.js';

describe("the inbox's address", () => {
  it('filters go into the query string and come back the same', () => {
    const filters = { app: 'demo app', kind: 'data', outcome: 'dry_run', q: 'sale & more' };
    expect(searchFromFilters(filters)).toBe('?app=demo+app&kind=data&outcome=dry_run&q=sale+%26+more');
    expect(filtersFromSearch(searchFromFilters(filters))).toEqual(filters);
    expect(searchFromFilters({ app: '', kind: '', outcome: '', q: '' })).toBe('');
  });

  it('a kind or outcome the page has no option for reads as no filter', () => {
    expect(filtersFromSearch('?kind=email&outcome=lost&q=x')).toEqual({ app: '', kind: '', outcome: '', q: 'x' });
  });

  it('a permalink names its message, encoded', () => {
    expect(hashOfMessage('emu-1/2 3')).toBe('#/m/emu-1%2F2%203');
    expect(messageIdFromHash(hashOfMessage('emu-1/2 3'))).toBe('emu-1/2 3');
    expect(messageIdFromHash('#/m/%E0%A4%A')).toBe('%E0%A4%A');
    expect(messageIdFromHash('')).toBeUndefined();
    expect(messageIdFromHash('#/m/')).toBeUndefined();
  });

  it('the header counts what the filter shows, out of everything', () => {
    expect(countLabel(3, 1200, true)).toBe('3 of 1,200 requests match');
    expect(countLabel(1200, 1200, false)).toBe('1,200 requests');
    expect(countLabel(1, 1, false)).toBe('1 request');
    expect(isFiltered({ app: '', kind: '', outcome: '', q: 'x' })).toBe(true);
  });
});
