/** The `code` of a ProxyTunnelError, as the client sees it on a failed request. */
export const PROXY_TUNNEL_ERROR = 'ERR_PROXY_TUNNEL';

/**
 * The proxy did not open the CONNECT tunnel to the service: it answered CONNECT with something other than
 * 200 (`status`), or closed the connection before answering or before TLS with the service was set up. The
 * request itself never left, so nothing can have reached the service.
 */
export class ProxyTunnelError extends Error {
  readonly code = PROXY_TUNNEL_ERROR;

  constructor(
    message: string,
    /** The proxy's HTTP status for CONNECT, when it answered one. */
    readonly proxyStatus?: number,
  ) {
    super(message);
    this.name = 'ProxyTunnelError';
  }
}
