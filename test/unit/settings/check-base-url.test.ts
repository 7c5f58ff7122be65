import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../../src/errors.js';
import { checkBaseUrl, isLoopbackHost } from '../../../src/settings/check-base-url.js';
import { thrownBy } from '../../helpers/cli-error.js';

const refusal = (url: string, insecure = false): CliError => thrownBy(() => checkBaseUrl(url, { insecure, source: 'flag --base-url' }));

describe('checkBaseUrl', () => {
  it.each([
    ['https://pushapi.twibida.com', 'https://pushapi.twibida.com'],
    ['https://pushapi.twibida.com/', 'https://pushapi.twibida.com'],
    ['https://proxy.example.com/push/', 'https://proxy.example.com/push'],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['http://127.1.2.3', 'http://127.1.2.3'],
    ['http://127.1:9', 'http://127.0.0.1:9'],
    ['http://localhost:8787/', 'http://localhost:8787'],
    ['http://LOCALHOST', 'http://localhost'],
    ['http://[::1]:8787', 'http://[::1]:8787'],
    ['http://[0:0:0:0:0:0:0:1]', 'http://[::1]'],
    ['http://[::ffff:127.0.0.1]', 'http://[::ffff:7f00:1]'],
  ])('accepts %s as %s', (url, normalised) => {
    expect(checkBaseUrl(url)).toBe(normalised);
  });

  it.each(['http://example.com', 'http://128.0.0.1', 'http://10.0.0.1:8787', 'http://localhost.example.com', 'http://[::2]'])(
    'refuses plain http to %s with the fix',
    (url) => {
      const error = refusal(url);
      expect(error.exitCode).toBe(ExitCode.config);
      expect(error.message).toContain('refusing plain http://');
      expect(error.message).toContain('(from flag --base-url)');
      expect(error.hint).toContain('--insecure');
      expect(error.hint).toContain('https://');
    },
  );

  it('allows plain http to any host with insecure', () => {
    expect(checkBaseUrl('http://example.com/', { insecure: true })).toBe('http://example.com');
  });

  it.each([
    ['not a url', 'is not a valid URL'],
    ['pushapi.twibida.com', 'is not a valid URL'],
    ['ftp://example.com', 'unsupported scheme ftp:'],
    ['file:///etc/passwd', 'unsupported scheme file:'],
    ['https://example.com/?a=1', 'query string'],
  ])('refuses %s', (url, words) => {
    const error = refusal(url, true);
    expect(error.exitCode).toBe(ExitCode.config);
    expect(error.message).toContain(words);
  });

  it('refuses credentials in the URL without repeating them', () => {
    const error = refusal('https://user:canary-pw@example.com');
    expect(error.message).toContain('user name or password');
    expect(`${error.message} ${error.hint}`).not.toContain('canary-pw');
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['localhost', true],
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['[::1]', true],
    ['::1', true],
    ['1.127.0.0', false],
    ['example.com', false],
    ['[::]', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});
