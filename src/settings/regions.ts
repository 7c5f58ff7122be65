import { configError } from '../errors.js';
import { nearest } from '../suggest.js';

/** The service's regions and their base URLs (docs/behaviour.md#the-service). India users' data must go to `india`. */
export const regionUrls = {
  global: 'https://pushapi.twibida.com',
  india: 'https://ind-pushapi.twibida.com',
} as const;

export type Region = keyof typeof regionUrls;

export const regionNames = Object.keys(regionUrls) as Region[];

export const defaultRegion: Region = 'global';

export function isRegion(value: string): value is Region {
  return Object.hasOwn(regionUrls, value);
}

/**
 * The region `text` names (any case), or a configuration error (exit 6) naming where it came from, as a
 * refused base URL is: a region is a setting wherever it is given (a flag, the environment, a config file,
 * an answer to `init`).
 */
export function regionOf(text: string, source: string): Region {
  const lower = text.toLowerCase();
  if (isRegion(lower)) return lower;
  const guess = nearest(text, regionNames);
  throw configError(`unknown region "${text}" (from ${source})`, `${guess ? `did you mean "${guess}"? ` : ''}valid regions: ${regionNames.join(', ')} (or set a base URL with --base-url)`);
}
