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
