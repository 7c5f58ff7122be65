import { describe, expect, it } from 'vitest';
import { describeStatus, STATUS_CODES } from '../../../src/client/codes.js';

describe('describeStatus', () => {
  it.each([
    [21001, 'App ID missing'],
    [21002, 'App ID illegal'],
    [21003, 'App Secret missing'],
    [21004, 'App Secret illegal'],
    [21005, 'message illegal'],
    [21006, 'client ID too much'],
    [21007, 'app push SDK disabled'],
    [22001, 'called too frequently'],
  ])('knows %i as %s, with a hint', (code, meaning) => {
    const info = describeStatus(code);
    expect(info).toMatchObject({ code, meaning, known: true });
    expect(info.hint.length).toBeGreaterThan(10);
  });

  it('answers honestly for a code it does not know', () => {
    expect(describeStatus(29999)).toMatchObject({ code: 29999, known: false });
  });

  it('has a hint on one line for every code', () => {
    for (const info of STATUS_CODES.values()) expect(info.hint).not.toContain('\n');
  });

  it('21002 names both ways the service is chosen: an app ID of the other region, or of another base URL, is unknown alike', () => {
    // A send with --base-url has no region to check: the hint must not send the user to --region alone.
    expect(describeStatus(21002).hint).toMatch(/--region global\|india.*--base-url|--base-url.*--region global\|india/);
  });
});
