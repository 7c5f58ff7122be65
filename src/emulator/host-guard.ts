// DNS rebinding: a web page the developer visits can point its own name at 127.0.0.1 and read a local
// server through the browser. A loopback emulator therefore answers only requests addressed to a loopback
// name (or to the --host it was given), as development servers do; the browser always sends the name.
import { BlockList, isIP } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/** `localhost` (and names under it, which browsers resolve to loopback themselves) or a loopback address. */
function isLoopbackName(name: string): boolean {
  const host = name.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/** The name in a Host header, without its port: `[::1]:8787` → `::1`. */
function hostNameOf(header: string): string {
  const bracketed = /^\[([^\]]*)\]/.exec(header);
  if (bracketed) return bracketed[1]!;
  const colon = header.indexOf(':');
  return colon < 0 ? header : header.slice(0, colon);
}

/**
 * For an emulator listening on `boundHost`: a check of each request's Host header that returns the name
 * refused, or undefined when the request may be answered. Not loopback-bound means no check: the user chose
 * to expose the emulator and was warned.
 */
export function hostGuard(boundHost: string): (hostHeader: string | undefined) => string | undefined {
  if (!isLoopbackName(boundHost)) return () => undefined;
  const own = boundHost.toLowerCase();
  return (hostHeader) => {
    const name = hostNameOf(hostHeader ?? '').toLowerCase();
    return isLoopbackName(name) || name === own ? undefined : name;
  };
}
