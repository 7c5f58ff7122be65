// Cross-site requests: a web page the developer visits may POST to http://127.0.0.1:8787 (a `text/plain`
// form-like request needs no preflight), which would fill the inbox or clear it. Browsers name the page that
// sent a request in its Origin header; tools (curl, pushctl, the action) send none. So a state-changing
// request that carries an Origin other than the emulator's own is refused, as development servers do.

/** Methods that only read: any Origin may send them, the same-origin policy keeps the answer from the page. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The Origin refused for a request, or undefined when it may be answered: no Origin (not a browser), a safe
 * method, or the emulator's own origin (`scheme://` + the Host the request was addressed to, which the host
 * guard has already checked).
 */
export function foreignOrigin(method: string, origin: string | undefined, host: string | undefined, scheme: 'http' | 'https'): string | undefined {
  if (origin === undefined || SAFE_METHODS.has(method.toUpperCase())) return undefined;
  const own = `${scheme}://${host ?? ''}`.toLowerCase();
  return origin.toLowerCase() === own ? undefined : origin;
}
