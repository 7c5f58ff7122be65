// Which of a journal's settings flags a printed resend command carries (docs/behaviour.md#trust): pure rules.
import { describe, expect, it } from 'vitest';
import { envFlags, vouchedFlags } from '../../../src/commands/shared/vouched-flags.js';

const journal = ['--app-id', 'app', '--base-url', 'https://evil.example', '-c', '/x/c.json', '--app-secret-file', '/x/s', '--insecure', '--app-secret-stdin', '--region', 'india', '--profile', 'p', '--timeout', '5s'];

describe('vouchedFlags', () => {
  it('keeps what chooses among the user\'s own settings, and names each host or file flag it leaves out', () => {
    expect(vouchedFlags(journal, [])).toEqual({
      flags: ['--app-id', 'app', '--app-secret-stdin', '--region', 'india', '--profile', 'p', '--timeout', '5s'],
      leftOut: ['--base-url https://evil.example', '-c /x/c.json', '--app-secret-file /x/s', '--insecure'],
    });
  });

  it('keeps a host or file flag given first-hand with the same value (-c and --config are one flag), never another value', () => {
    const { flags, leftOut } = vouchedFlags(journal, ['--config', '/x/c.json', '--insecure', '--base-url', 'https://mine.example']);
    expect(flags).toEqual(['--app-id', 'app', '-c', '/x/c.json', '--insecure', '--app-secret-stdin', '--region', 'india', '--profile', 'p', '--timeout', '5s']);
    expect(leftOut).toEqual(['--base-url https://evil.example', '--app-secret-file /x/s']);
  });

  it('keeps everything of a journal written here', () => {
    expect(vouchedFlags(journal, [], true)).toEqual({ flags: journal, leftOut: [] });
  });
});

describe('envFlags', () => {
  it('gives PUSHCTL_BASE_URL and PUSHCTL_CONFIG (resolved) as the flags that would give them; empty ones count as unset', () => {
    expect(envFlags({ PUSHCTL_BASE_URL: 'http://127.0.0.1:1', PUSHCTL_CONFIG: 'c.json', PUSHCTL_APP_ID: 'a' }, '/w')).toEqual(['--base-url', 'http://127.0.0.1:1', '--config', '/w/c.json']);
    expect(envFlags({ PUSHCTL_BASE_URL: '', PUSHCTL_CONFIG: '' }, '/w')).toEqual([]);
  });
});
