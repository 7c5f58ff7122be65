import { describe, expect, it } from 'vitest';
import { describeDestination } from '../../../src/output/destination.js';

describe('describeDestination', () => {
  it('names a region and stays quiet for vendor and loopback hosts', () => {
    expect(describeDestination('https://ind-pushapi.twibida.com', 'region india (env PUSHCTL_REGION)', undefined, false)).toEqual({
      line: 'sending to ind-pushapi.twibida.com (region india (env PUSHCTL_REGION))\n',
    });
    expect(describeDestination('http://[::1]:8787/prefix', 'flag --base-url', 'flag', true)).toEqual({ line: 'dry run at [::1]:8787/prefix (flag --base-url)\n' });
  });

  it('warns for any other host, naming the setting', () => {
    const d = describeDestination('https://pushapi.twibida.com.evil.example', 'config /w/.pushctlrc.json', 'env PUSHCTL_APP_SECRET', false);
    expect(d.warning).toContain('pushapi.twibida.com.evil.example is not a vendor region host; the base URL was chosen by config /w/.pushctlrc.json');
  });
});
