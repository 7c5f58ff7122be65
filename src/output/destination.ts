// Where a send goes, said before it goes. A base URL can come from a config file found by searching up
// from the working directory, so a checkout that is not yours could point an environment secret at its
// own server: when the host is neither a vendor region nor loopback, a warning names the setting.
import { isLoopbackHost } from '../settings/check-base-url.js';
import { regionUrls } from '../settings/regions.js';
import { escapeControl } from './escape-control.js';

export interface Destination {
  /** "sending to pushapi.twibida.com (region global (default))". */
  line: string;
  /** Set when the host is neither a vendor region host nor loopback. */
  warning?: string;
}

/**
 * `baseUrl` as checked by checkBaseUrl; `source` is where it came from as resolveSettings says it
 * ("region india (env PUSHCTL_REGION)", "config /x/.pushctlrc.json", "flag --base-url").
 */
export function describeDestination(baseUrl: string, source: string, secretSource: string | undefined, dryRun: boolean): Destination {
  const url = new URL(baseUrl);
  // The source names a config file's path and a profile's name: text from a directory or a flag, printed as data.
  source = escapeControl(source);
  const line = `${dryRun ? 'dry run at' : 'sending to'} ${url.host}${url.pathname === '/' ? '' : url.pathname} (${source})\n`;
  const vendor = Object.values(regionUrls).some((region) => new URL(region).host === url.host);
  if (vendor || isLoopbackHost(url.hostname)) return { line };
  const secret = secretSource ? ` with the app secret from ${secretSource}` : '';
  return {
    line,
    warning: `warning: ${url.host} is not a vendor region host; the base URL was chosen by ${source}, and pushctl sends it the request${secret}. If you did not set this, stop and check that setting.\n`,
  };
}
