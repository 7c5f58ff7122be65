import { configError } from '../errors.js';
import { isLoopbackHost } from '../client/loopback.js';

export { isLoopbackHost };

export interface CheckBaseUrlOptions {
  /** `--insecure`: allow plain http:// to a host that is not loopback. */
  insecure?: boolean;
  /** Where the URL came from, for the error message (e.g. "env PUSHCTL_BASE_URL"). */
  source?: string;
}


/**
 * Checks a base URL before any request carries the secret to it, and returns it normalised (no trailing
 * slash). Refuses malformed URLs, schemes other than http(s), embedded credentials, query strings and
 * fragments, and plain http:// to a non-loopback host unless `insecure`. Errors are configErrors (exit 6).
 */
export function checkBaseUrl(url: string, options: CheckBaseUrlOptions = {}): string {
  const from = options.source ? ` (from ${options.source})` : '';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw configError(`base URL "${url}"${from} is not a valid URL`, 'use a full URL such as https://pushapi.twibida.com');
  }
  if (parsed.username || parsed.password) {
    // Do not repeat the URL: the credentials in it may be real.
    throw configError(`base URL${from} contains a user name or password`, 'remove the credentials; the app secret is sent in the Authorization header');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw configError(`base URL "${url}"${from} uses the unsupported scheme ${parsed.protocol}`, `use https://${parsed.host || 'host'}`);
  }
  if (parsed.search || parsed.hash) {
    throw configError(`base URL "${url}"${from} must not have a query string or fragment`, `use ${parsed.origin}${parsed.pathname}`);
  }
  // The full endpoint copied from the vendor's page: pushctl appends /v1/message/push/{AppID} itself.
  if (/\/v1\/message\/push(\/|$)/.test(parsed.pathname)) {
    throw configError(`base URL "${url}"${from} already contains the push path /v1/message/push/…`, `give only the scheme, host and port: ${parsed.origin}`);
  }
  if (parsed.protocol === 'http:' && !options.insecure && !isLoopbackHost(parsed.hostname)) {
    throw configError(
      `refusing plain http:// to ${parsed.host}${from}: the app secret would travel unencrypted`,
      `use https://${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}, or pass --insecure if you really mean it (loopback hosts such as 127.0.0.1 are always allowed)`,
    );
  }
  return parsed.href.replace(/\/+$/, '');
}
