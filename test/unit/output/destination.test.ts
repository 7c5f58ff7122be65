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

  it('escapes control characters of the source: a profile name or a config path can hold them', () => {
    const source = 'config /w/\u001b]0;pwned\u0007/.pushctlrc.json (profile g\u001b[31mRED)';
    for (const d of [describeDestination('http://127.0.0.1:8787', source, undefined, false), describeDestination('https://push.example', source, 'flag', false)]) {
      for (const text of [d.line, d.warning ?? '']) expect([...text].filter((c) => c !== '\n' && (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))).toEqual([]);
    }
    expect(describeDestination('http://127.0.0.1:8787', source, undefined, false).line).toBe('sending to 127.0.0.1:8787 (config /w/\\x1b]0;pwned\\x07/.pushctlrc.json (profile g\\x1b[31mRED))\n');
  });
});
