// Sending through a proxy: the agent for a proxy URL, and a client whose failures name the proxy, since
// with a proxy in the way a refused connection or a 502 is the proxy's doing, not the service's.
import type http from 'node:http';
import type { AttemptOutcome } from './outcome.js';
import { isLoopbackHost } from './loopback.js';
import { PROXY_TUNNEL_ERROR } from './proxy-tunnel-error.js';
import { PushClient, type PushClientOptions } from './push-client.js';

export interface ProxyInUse {
  /** The proxy URL, credentials included (they are secrets: never print this). */
  url: string;
  /** The URL as printed: its password replaced by `***`. */
  display: string;
  /** Where the setting came from, e.g. `env HTTPS_PROXY`. */
  source: string;
}

/**
 * The agent that reaches `target` through `proxyUrl`: a CONNECT tunnel for https (TLS is negotiated with the
 * service through the tunnel, with the usual certificate checks), plain forwarding for http.
 */
export async function proxyAgent(proxyUrl: string, target: URL): Promise<http.Agent> {
  const agents = await import('./proxy-agents.js');
  return target.protocol === 'https:' ? new agents.TunnelAgent(proxyUrl, { keepAlive: true }) : new agents.HttpProxyAgent(proxyUrl, { keepAlive: true });
}

/** Network errors that, with a proxy in the way, happened between pushctl and the proxy. */
const PROXY_CONNECT_ERRORS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

const onThisMachine = (url: string): boolean => {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
};

/** Rewrites an outcome the proxy caused so that its reason names the proxy and where it was set. */
export function nameProxy(outcome: AttemptOutcome, proxy: Pick<ProxyInUse, 'display' | 'source'>): AttemptOutcome {
  const via = `proxy ${proxy.display} (${proxy.source})`;
  if (outcome.kind === 'accepted' || outcome.kind === 'rejected') return outcome;
  // A tunnel the proxy did not open (client/proxy-agents.ts): classified already, the reason names no proxy yet.
  if (outcome.errorCode === PROXY_TUNNEL_ERROR) return { ...outcome, reason: outcome.reason.replace(/^the proxy/, via) };
  const status = outcome.httpStatus;
  if ((status === 401 || status === 403) && outcome.kind === 'retryable' && outcome.code === undefined) {
    // Not the service's JSON: with plain http forwarded by a proxy, most likely the proxy's own refusal.
    return { ...outcome, reason: `HTTP ${status} through ${via}, not the service's answer: the proxy refused the request (check its credentials and access rules (ACL)), or the base URL is wrong; nothing was sent` };
  }
  if (status === 407) {
    // The proxy refused to forward anything: certainly not delivered, and repeating cannot help.
    return { kind: 'retryable', permanent: true, httpStatus: 407, reason: `${via} requires authentication (407); put user:password in the proxy URL`, ...(outcome.response ? { response: outcome.response } : {}) };
  }
  if (status === 500 || status === 502 || status === 503 || status === 504) {
    // A gateway error that is not the service's JSON answer (that would be classified otherwise): the proxy's own.
    return { ...outcome, reason: `HTTP ${status} through ${via}: the proxy may not have reached the service (${outcome.reason})` };
  }
  if (status === undefined && outcome.errorCode !== undefined && PROXY_CONNECT_ERRORS.has(outcome.errorCode)) {
    // Nothing listens at a proxy on this machine, and retrying for seconds will not start one (as for a
    // loopback base URL, client/classify.ts); a remote refusal may be a proxy restarting, and keeps its retries.
    if (outcome.kind === 'retryable' && outcome.errorCode === 'ECONNREFUSED' && onThisMachine(proxy.display)) {
      return { ...outcome, permanent: true, reason: `${via} failed: ${outcome.reason}: nothing listens there`, fix: `start the proxy, or fix ${proxy.source}` };
    }
    return { ...outcome, reason: `${via} failed: ${outcome.reason}` };
  }
  // Any other failure without an answer (a reset, a timeout) happened on a path the proxy is part of: say so,
  // so that a dropped connection is not blamed on the service alone.
  if (status === undefined && outcome.errorCode !== undefined) return { ...outcome, reason: `${outcome.reason}, through ${via}` };
  return outcome;
}

/** A PushClient whose request goes through a proxy, and whose failures say so. */
export class ProxiedPushClient extends PushClient {
  constructor(
    options: PushClientOptions,
    private readonly proxy: ProxyInUse,
  ) {
    super(options);
  }

  override async send(body: Parameters<PushClient['send']>[0], options?: Parameters<PushClient['send']>[1]): Promise<AttemptOutcome> {
    return nameProxy(await super.send(body, options), this.proxy);
  }
}

/** A client for `options.baseUrl`: direct, or through `proxy` when one applies. */
export async function createPushClient(options: Omit<PushClientOptions, 'agent'>, proxy: ProxyInUse | undefined): Promise<PushClient> {
  if (!proxy) return new PushClient(options);
  const agent = await proxyAgent(proxy.url, new URL(options.baseUrl));
  return new ProxiedPushClient({ ...options, agent }, proxy);
}
