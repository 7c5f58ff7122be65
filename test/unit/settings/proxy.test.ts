import { describe, expect, it } from 'vitest';
import { displayProxyUrl, noProxyMatches, proxySecrets, resolveProxy } from '../../../src/settings/proxy.js';
import type { LoadedConfig } from '../../../src/settings/load.js';
import { nameProxy } from '../../../src/client/proxy-agent.js';

const https = new URL('https://push.example.com/');
const http = new URL('http://127.0.0.1:8787/');
const file = (config: LoadedConfig['config']): LoadedConfig => ({ filepath: '/p/.pushctlrc.json', config, origin: 'search' as LoadedConfig['origin'], warnings: [] });

describe('resolveProxy', () => {
  it('takes the scheme variable, lower case first, as curl does', () => {
    expect(resolveProxy({ env: { HTTPS_PROXY: 'http://a:1', https_proxy: 'http://b:2' }, target: https })).toEqual({ url: 'http://b:2/', source: 'env https_proxy' });
    expect(resolveProxy({ env: { HTTPS_PROXY: 'http://a:1' }, target: http })).toEqual({ source: 'none' });
    expect(resolveProxy({ env: { HTTP_PROXY: 'a:3128' }, target: http })).toEqual({ url: 'http://a:3128/', source: 'env HTTP_PROXY' });
  });

  it('ranks --proxy over the environment over the profile over the file', () => {
    const loaded = file({ proxy: 'http://file:1', profiles: { ci: { proxy: 'http://profile:1' } } });
    expect(resolveProxy({ flag: 'http://flag:1', env: { https_proxy: 'http://env:1' }, file: loaded, profile: 'ci', target: https }).source).toBe('flag --proxy');
    expect(resolveProxy({ env: { https_proxy: 'http://env:1' }, file: loaded, profile: 'ci', target: https }).source).toBe('env https_proxy');
    expect(resolveProxy({ env: {}, file: loaded, profile: 'ci', target: https })).toEqual({ url: 'http://profile:1/', source: 'config /p/.pushctlrc.json (profile ci)' });
    expect(resolveProxy({ env: {}, file: loaded, target: https })).toEqual({ url: 'http://file:1/', source: 'config /p/.pushctlrc.json' });
  });

  it('NO_PROXY exempts hosts from every source; loopback is not exempt by default', () => {
    expect(resolveProxy({ flag: 'http://p:1', env: { NO_PROXY: '.example.com' }, target: https })).toEqual({ source: 'none: env NO_PROXY names push.example.com' });
    expect(resolveProxy({ env: { http_proxy: 'http://p:1' }, target: http }).url).toBe('http://p:1/');
  });

  it('says which NO_PROXY entry exempts the host: * and a range name no host', () => {
    const local = new URL('http://127.0.0.1:8787/');
    expect(resolveProxy({ flag: 'http://p:1', env: { NO_PROXY: '*' }, target: local })).toEqual({ source: 'none: env NO_PROXY is *, which exempts every host' });
    expect(resolveProxy({ flag: 'http://p:1', env: { no_proxy: 'example.com, 127.0.0.0/8' }, target: local })).toEqual({ source: 'none: env no_proxy lists 127.0.0.0/8, which holds 127.0.0.1' });
    expect(resolveProxy({ flag: 'http://p:1', env: { NO_PROXY: '127.0.0.1' }, target: local })).toEqual({ source: 'none: env NO_PROXY names 127.0.0.1' });
  });

  it('refuses a proxy URL that is not http(s), naming where it came from', () => {
    expect(() => resolveProxy({ env: { https_proxy: 'socks5://u:pw@p:1' }, target: https })).toThrow(/proxy socks5:\/\/u:\*\*\*@p:1 \(env https_proxy\) uses socks5:/);
  });
});

describe('noProxyMatches', () => {
  it.each([
    ['*', 'https://x.y/', true],
    ['example.com', 'https://push.example.com/', true],
    ['.example.com', 'https://example.com/', true],
    ['ample.com', 'https://example.com/', false],
    ['127.0.0.1', 'http://127.0.0.1:8787/', true],
    ['10.0.0.0/8', 'http://10.2.3.4/', true],
    ['10.0.0.0/8', 'http://11.2.3.4/', false],
    ['::1', 'http://[::1]:8787/', true],
    ['localhost', 'http://127.0.0.1/', false],
  ])('%s vs %s → %s', (list, url, expected) => {
    expect(noProxyMatches(new URL(url), list)).toBe(expected);
  });
});

describe('proxy credentials', () => {
  // The credential as the proxy is sent it (Proxy-Authorization: Basic …), the password to anyone who decodes it.
  const basic = (userAndPassword: string) => Buffer.from(userAndPassword).toString('base64');
  it('are masked for display and listed as secrets', () => {
    expect(displayProxyUrl('http://me:p%40ss@proxy:3128')).toBe('http://me:***@proxy:3128');
    expect(proxySecrets('http://me:p%40ss@proxy:3128')).toEqual(['p%40ss', 'p@ss', basic('me:p@ss')]);
    expect(proxySecrets('http://proxy:3128')).toEqual([]);
  });

  it('a user name given alone (a token proxy) is the credential: masked and a secret; beside a password it is not', () => {
    expect(displayProxyUrl('http://tok_ABC123SECRET@proxy:3128')).toBe('http://***@proxy:3128');
    expect(proxySecrets('http://tok_ABC123SECRET@proxy:3128')).toEqual(['tok_ABC123SECRET', basic('tok_ABC123SECRET:')]);
    expect(proxySecrets('tok%2FABC@proxy:3128')).toEqual(['tok%2FABC', 'tok/ABC', basic('tok/ABC:')]);
    expect(proxySecrets('http://ci:pw-1234@proxy:3128')).toEqual(['pw-1234', basic('ci:pw-1234')]);
    // Not a URL (refused before use): the refusal's text masks the credential all the same.
    expect(displayProxyUrl('http://tok_ABC123SECRET@bad host:3128')).toBe('http://***@bad host:3128');
    expect(proxySecrets('http://tok_ABC123SECRET@bad host:3128')).toEqual(['tok_ABC123SECRET']);
  });
});

describe('nameProxy', () => {
  const proxy = { display: 'http://proxy:3128', source: 'env HTTPS_PROXY' };
  it('names the proxy when it refused, asked for credentials or answered a gateway error', () => {
    expect(nameProxy({ kind: 'retryable', reason: 'connection refused', errorCode: 'ECONNREFUSED' }, proxy)).toMatchObject({ reason: 'proxy http://proxy:3128 (env HTTPS_PROXY) failed: connection refused' });
    expect(nameProxy({ kind: 'in_doubt', reason: 'unreadable', httpStatus: 407 }, proxy)).toMatchObject({ kind: 'retryable', permanent: true, reason: expect.stringContaining('proxy http://proxy:3128 (env HTTPS_PROXY) requires authentication (407)') });
    expect(nameProxy({ kind: 'in_doubt', reason: 'HTTP 502', httpStatus: 502 }, proxy).kind).toBe('in_doubt');
    expect(nameProxy({ kind: 'in_doubt', reason: 'HTTP 502', httpStatus: 502 }, proxy)).toMatchObject({ reason: expect.stringContaining('through proxy http://proxy:3128') });
  });
  it('a proxy on this machine that refuses the connection: nothing listens there, so no retry, and the way out is said', () => {
    const local = { display: 'http://127.0.0.1:3128', source: 'flag --proxy' };
    expect(nameProxy({ kind: 'retryable', reason: 'could not connect (ECONNREFUSED)', errorCode: 'ECONNREFUSED' }, local)).toEqual({
      kind: 'retryable',
      errorCode: 'ECONNREFUSED',
      permanent: true,
      reason: 'proxy http://127.0.0.1:3128 (flag --proxy) failed: could not connect (ECONNREFUSED): nothing listens there',
      fix: 'start the proxy, or fix flag --proxy',
    });
    // A remote proxy that refuses may be restarting behind its address: it keeps its retries.
    expect(nameProxy({ kind: 'retryable', reason: 'connection refused', errorCode: 'ECONNREFUSED' }, proxy)).not.toHaveProperty('permanent');
  });
  it('leaves the service\'s own answers alone', () => {
    const rejected = { kind: 'rejected' as const, code: 21004, message: 'auth', httpStatus: 200 };
    expect(nameProxy(rejected, proxy)).toBe(rejected);
  });
});
