// Whether a host is this machine: plain http is allowed there, and a refused connection means the
// local emulator is not running.

/** Loopback hosts as the WHATWG URL parser normalises them (IPv4 shorthand such as 127.1 included). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  // IPv4-mapped IPv6 loopback: [::ffff:127.x.y.z] becomes [::ffff:7fxx:yyzz].
  return /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}
