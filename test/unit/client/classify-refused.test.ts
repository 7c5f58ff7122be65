// Failures where nothing can have reached the service: a refused connection (at once on loopback, where
// nothing listens; retried for a remote host, which may be restarting) and a proxy that did not open the tunnel.
import { describe, expect, it } from 'vitest';
import { classifyNetworkError } from '../../../src/client/classify.js';
import { nameProxy } from '../../../src/client/proxy-agent.js';
import { PROXY_TUNNEL_ERROR } from '../../../src/client/proxy-tunnel-error.js';
import { decideRetry } from '../../../src/client/retry.js';

const refused = (url: string) => classifyNetworkError({ errorCode: 'ECONNREFUSED', requestWritten: false, connected: false, target: new URL(url) });

describe('a refused connection', () => {
  it.each(['http://127.0.0.1:8787', 'http://localhost:9', 'http://[::1]:8787', 'http://127.0.0.2:80'])('to loopback (%s) fails at once, naming the URL and pushctl serve', (url) => {
    const outcome = refused(url);
    expect(outcome).toMatchObject({ kind: 'retryable', permanent: true, errorCode: 'ECONNREFUSED' });
    expect('reason' in outcome && outcome.reason).toBe(`could not connect to ${new URL(url).origin} (ECONNREFUSED): nothing listens there`);
    // The way out apart from what happened, so that each surface says it once (as a hint).
    expect('fix' in outcome && outcome.fix).toMatch(/^start the local emulator with `pushctl serve`, or fix the base URL/);
    expect(decideRetry(outcome, 1, 0.5)).toEqual({ retry: false, why: 'retrying cannot help' });
  });

  it('to a remote host is retried: it may be a server restarting', () => {
    const outcome = refused('https://push.example.com');
    expect(outcome).toMatchObject({ kind: 'retryable', errorCode: 'ECONNREFUSED' });
    expect(outcome).not.toHaveProperty('permanent');
    expect(decideRetry(outcome, 1, 0.5)).toMatchObject({ retry: true });
  });
});

describe('a proxy that did not open the tunnel', () => {
  const proxy = { display: 'http://proxy:3128', source: 'env HTTPS_PROXY' };
  const tunnel = (proxyStatus: number | undefined, message: string) =>
    nameProxy(classifyNetworkError({ errorCode: PROXY_TUNNEL_ERROR, requestWritten: false, connected: false, message, ...(proxyStatus !== undefined ? { proxyStatus } : {}) }), proxy);

  it.each([500, 502, 503, 504, undefined])('status %s: not processed, retried, the proxy named', (status) => {
    const outcome = tunnel(status, status === undefined ? 'the proxy closed the connection before answering CONNECT push.example.com:443 (ECONNRESET)' : `the proxy answered CONNECT push.example.com:443 with HTTP ${status}`);
    expect(outcome.kind).toBe('retryable');
    expect(decideRetry(outcome, 1, 0.5)).toMatchObject({ retry: true });
    expect('reason' in outcome && outcome.reason).toMatch(/^proxy http:\/\/proxy:3128 \(env HTTPS_PROXY\) (answered|closed).*; nothing was sent$/);
  });

  it.each([401, 403, 407])('status %s: the proxy refuses us; not retried, and the way out is its credentials, not the base URL', (status) => {
    const outcome = tunnel(status, `the proxy answered CONNECT push.example.com:443 with HTTP ${status}`);
    expect(outcome).toMatchObject({ kind: 'retryable', permanent: true });
    const reason = 'reason' in outcome ? outcome.reason : '';
    expect(reason).toMatch(/^proxy http:\/\/proxy:3128 \(env HTTPS_PROXY\) answered CONNECT/);
    expect(reason).toMatch(/credential/);
    expect(reason).not.toMatch(/base URL|region/);
  });
});

describe('other failures through a proxy', () => {
  it('a reset or a timeout names the proxy on its path, keeping its class', () => {
    const proxy = { display: 'http://proxy:3128', source: 'flag --proxy' };
    const reset = nameProxy(classifyNetworkError({ errorCode: 'ECONNRESET', requestWritten: true, connected: true }), proxy);
    expect(reset).toMatchObject({ kind: 'in_doubt', reason: 'connection failed after the request was sent (ECONNRESET), through proxy http://proxy:3128 (flag --proxy)' });
    const early = nameProxy(classifyNetworkError({ errorCode: 'ERROR', requestWritten: false, connected: true }), proxy);
    expect(early).toMatchObject({ kind: 'retryable', reason: expect.stringMatching(/through proxy http:\/\/proxy:3128 \(flag --proxy\)$/) });
  });
});
