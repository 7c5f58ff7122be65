// The proxy agent libraries, a bundle island of their own (scripts/build.mjs): loaded only when a proxy
// applies, so a direct send never pays for them at start-up.
import type http from 'node:http';
import { TLSSocket } from 'node:tls';
import type { Socket } from 'node:net';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { ProxyTunnelError } from './proxy-tunnel-error.js';

export { HttpProxyAgent } from 'http-proxy-agent';

/** How a proxy that hangs up shows: the library's own errors carry no code (`Proxy connection ended…`). */
const HUNG_UP = new Set([undefined, 'ECONNRESET', 'EPIPE']);

/**
 * https-proxy-agent, with a tunnel that was not opened reported as such. The library hands a refused
 * CONNECT (403, 407, 502...) back as if it were the service's HTTP answer, and a proxy that hangs up as a
 * bare "connection ended" error; either way the request never left pushctl, and the difference matters:
 * an answer from the service may mean it processed the push, a failed tunnel proves it did not.
 */
export class TunnelAgent extends HttpsProxyAgent<string> {
  override async connect(req: http.ClientRequest, opts: Parameters<HttpsProxyAgent<string>['connect']>[1]): Promise<Socket> {
    const target = `${opts.host}:${opts.port}`;
    let status: number | undefined;
    let statusText = '';
    req.once('proxyConnect', (answer: { statusCode: number; statusText: string }) => {
      status = answer.statusCode;
      statusText = answer.statusText;
    });
    let socket: Socket;
    try {
      socket = await super.connect(req, opts);
    } catch (error) {
      // A proxy that cannot be reached (ECONNREFUSED, ENOTFOUND...) or whose own certificate fails keeps its
      // error: the client names the proxy for those already.
      const code = (error as NodeJS.ErrnoException).code;
      if (!HUNG_UP.has(code)) throw error;
      throw new ProxyTunnelError(`the proxy closed the connection before answering CONNECT ${target} (${code ?? (error as Error).message})`);
    }
    if (status !== 200) {
      // The library's stand-in socket would replay the proxy's answer as if the service had sent it.
      socket.destroy();
      throw new ProxyTunnelError(`the proxy answered CONNECT ${target} with HTTP ${status}${statusText ? ` ${statusText}` : ''}`, status);
    }
    if (socket instanceof TLSSocket && opts.secureEndpoint) await tunnelHandshake(socket, target);
    return socket;
  }
}

/**
 * Waits for TLS with the service through the tunnel. A tunnel that closes before that is the proxy's doing
 * (or the far end's, relayed by the proxy); a certificate the checks refuse is not, and keeps its own error.
 */
function tunnelHandshake(socket: TLSSocket, target: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      socket.off('secureConnect', onSecure);
      socket.off('error', onError);
      socket.off('close', onClose);
    };
    const onSecure = () => (done(), resolve());
    const onError = (error: NodeJS.ErrnoException) => {
      done();
      const closed = error.code === 'ECONNRESET' || error.code === 'EPIPE' || /socket disconnected|socket hang up/i.test(error.message);
      reject(closed ? new ProxyTunnelError(`the proxy closed the tunnel to ${target} before TLS with the service was set up (${error.code ?? 'closed'})`) : error);
    };
    const onClose = () => (done(), reject(new ProxyTunnelError(`the proxy closed the tunnel to ${target} before TLS with the service was set up`)));
    socket.once('secureConnect', onSecure);
    socket.once('error', onError);
    socket.once('close', onClose);
  });
}
