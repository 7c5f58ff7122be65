import { describe, expect, it } from 'vitest';
import { COUNTRY_ALIASES, COUNTRY_CODES } from '../../../src/message/countries.js';

describe('COUNTRY_CODES', () => {
  it('holds the 249 assigned ISO 3166-1 alpha-2 codes', () => {
    expect(COUNTRY_CODES.size).toBe(249);
  });

  it('holds only two upper-case letters per code', () => {
    for (const code of COUNTRY_CODES) {
      expect(code).toMatch(/^[A-Z]{2}$/);
    }
  });

  it.each(['GB', 'US', 'CN', 'IN', 'AX', 'SS', 'CW', 'SX', 'BQ'])('includes %s', (code) => {
    expect(COUNTRY_CODES.has(code)).toBe(true);
  });

  it.each(['UK', 'XK', 'EU', 'ZZ'])('excludes %s', (code) => {
    expect(COUNTRY_CODES.has(code)).toBe(false);
  });
});

describe('COUNTRY_ALIASES', () => {
  it('maps UK to GB and EL to GR', () => {
    expect(COUNTRY_ALIASES['UK']).toBe('GB');
    expect(COUNTRY_ALIASES['EL']).toBe('GR');
  });

  it('points every alias at an assigned code and never aliases an assigned code', () => {
    for (const [alias, target] of Object.entries(COUNTRY_ALIASES)) {
      expect(COUNTRY_CODES.has(target), `${alias} -> ${target}`).toBe(true);
      expect(COUNTRY_CODES.has(alias), alias).toBe(false);
    }
  });
});
