// Reading a whole-number query parameter, as every listing route does.

/** The parameter as a whole number; undefined when absent or empty; 'bad' when it is something else. */
export function wholeNumberParam(query: URLSearchParams, name: string): number | undefined | 'bad' {
  const text = query.get(name);
  if (text === null || text === '') return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= 0 ? value : 'bad';
}
