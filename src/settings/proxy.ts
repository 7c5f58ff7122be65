// Which proxy, if any, a request to the service goes through, and where that choice came from. Pure: the
// environment and the config file come in as arguments.
//
// The environment is read as curl reads it: the scheme's variable (http_proxy / HTTP_PROXY for an http
// URL, https_proxy / HTTPS_PROXY for https; lower case first), and NO_PROXY / no_proxy naming hosts that
// go direct. Loopback addresses are NOT exempt unless NO_PROXY says so, as with curl; --proxy and the
// config file's `proxy` key are subject to NO_PROXY too.
import { configError } from '../errors.js';
import type { LoadedConfig } from './load.js';

export interface ProxyChoice {
  /** The proxy URL (credentials included: it is a secret), or undefined to connect directly. */
  url?: string;
  /** Where the choice came from: `flag --proxy`, `env HTTPS_PROXY`, `config <file>`, or why there is none. */
  source: string;
}

export interface ProxyInput {
  flag?: string;
  env: Record<string, string | undefined>;
  file?: LoadedConfig | null;
  /** The selected profile's name, when one is selected. */
  profile?: string;
  target: URL;
}

const nonEmpty = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

/** The first set variable of `names`, with its name. */
function fromEnv(env: Record<string, string | undefined>, names: string[]): { value: string; name: string } | undefined {
  for (const name of names) {
    const value = nonEmpty(env[name]);
    if (value !== undefined) return { value, name };
  }
  return undefined;
}

export function resolveProxy(input: ProxyInput): ProxyChoice {
  const scheme = input.target.protocol === 'https:' ? 'https' : 'http';
  const profileValue = input.profile !== undefined ? input.file?.config.profiles?.[input.profile]?.proxy : undefined;
  const envChoice = fromEnv(input.env, [`${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`]);
  const chosen =
    nonEmpty(input.flag) !== undefined
      ? { value: input.flag!.trim(), source: 'flag --proxy' }
      : envChoice
        ? { value: envChoice.value, source: `env ${envChoice.name}` }
        : profileValue !== undefined
          ? { value: profileValue, source: `config ${input.file!.filepath} (profile ${input.profile})` }
          : input.file?.config.proxy !== undefined
            ? { value: input.file.config.proxy, source: `config ${input.file.filepath}` }
            : undefined;
  if (!chosen) return { source: 'none' };
  const noProxy = fromEnv(input.env, ['no_proxy', 'NO_PROXY']);
  const exempting = noProxy ? noProxyEntry(input.target, noProxy.value) : undefined;
  if (noProxy && exempting !== undefined) return { source: `none: env ${noProxy.name} ${exemptionWords(exempting, input.target.hostname)}` };
  return { url: normaliseProxyUrl(chosen.value, chosen.source), source: chosen.source };
}

/** Why NO_PROXY exempts `host`, in words: `*` and a range name no host, so "names 127.0.0.1" would be untrue. */
function exemptionWords(entry: string, host: string): string {
  if (entry === '*') return 'is *, which exempts every host';
  if (entry.includes('/')) return `lists ${entry}, which holds ${host}`;
  return `names ${host}`;
}

/** curl's NO_PROXY: `*`, or comma-separated hosts and domains (a leading dot optional), IPs, CIDR ranges. */
export function noProxyMatches(target: URL, list: string): boolean {
  return noProxyEntry(target, list) !== undefined;
}

/** The first entry of a NO_PROXY list that exempts `target`, or undefined. */
function noProxyEntry(target: URL, list: string): string | undefined {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return list
    .split(/[,\s]+/)
    .map((entry) => entry.trim().toLowerCase().replace(/^\[|\]$/g, ''))
    .filter(Boolean)
    .find((entry) => {
      if (entry === '*') return true;
      const [base, bits] = entry.split('/');
      if (bits !== undefined) return inCidr(host, base!, Number(bits));
      // A port is ignored (host:port); an IPv6 address has more than one colon and no port here.
      const name = base!.split(':').length === 2 ? base!.replace(/:\d+$/, '') : base!;
      const domain = name.replace(/^\*?\./, '');
      return host === domain || host.endsWith(`.${domain}`);
    });
}

function inCidr(host: string, base: string, bits: number): boolean {
  const toNumber = (ip: string) => {
    const parts = ip.split('.').map(Number);
    return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 255) ? parts.reduce((n, p) => n * 256 + p, 0) : undefined;
  };
  const a = toNumber(host);
  const b = toNumber(base);
  if (a === undefined || b === undefined || !(bits >= 0 && bits <= 32)) return false;
  const size = 2 ** (32 - bits);
  return Math.floor(a / size) === Math.floor(b / size);
}

/** `host:port` means http://host:port, as curl takes it; only http and https proxies are supported. */
export function normaliseProxyUrl(value: string, source: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw configError(`the proxy ${JSON.stringify(displayProxyUrl(value))} (${source}) is not a valid URL`, 'use e.g. http://proxy.example.com:3128');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw configError(`the proxy ${displayProxyUrl(url.href)} (${source}) uses ${url.protocol}; pushctl supports http:// and https:// proxies`, 'use e.g. http://proxy.example.com:3128');
  }
  return url.href;
}

/**
 * The proxy URL as printed: its password replaced by `***`, or, when there is a user name and no password
 * (`http://tok_ABC@proxy:3128`, the usual form for token proxies), the user name, which is then the credential.
 */
export function displayProxyUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    else if (url.username) url.username = '***';
    return url.href.replace(/\/$/, '');
  } catch {
    return value.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@').replace(/\/\/[^:@/]+@/, '//***@');
  }
}

/** The credential in a proxy URL, which must never be printed: the password, or a user name given alone; raw and decoded. */
export function proxySecrets(value: string | undefined): string[] {
  const credential = proxyCredential(value);
  if (credential === undefined) return [];
  let decoded = credential;
  try {
    decoded = decodeURIComponent(credential);
  } catch {
    // A stray % that is not an escape: the raw form is all there is.
  }
  const basic = basicCredential(value);
  return [...new Set([credential, decoded, ...(basic ? [basic] : [])])];
}

/**
 * The credential as the proxy is sent it, `Proxy-Authorization: Basic <base64 of user:password>` (as the proxy
 * agents build it, from the URL's decoded parts): the password itself to anyone who decodes it, so a proxy
 * that echoes it must not put it on the screen.
 */
function basicCredential(value: string | undefined): string | undefined {
  try {
    const { username, password } = new URL(withScheme(value!));
    return username || password ? Buffer.from(`${decodeURIComponent(username)}:${decodeURIComponent(password)}`).toString('base64') : undefined;
  } catch {
    return undefined;
  }
}

/** A proxy setting as a URL's text: `host:port` is read as http, as curl reads it. */
const withScheme = (value: string): string => (/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim()) ? value.trim() : `http://${value.trim()}`);

/** The password of a proxy URL, or its user name when that is given alone (a token); undefined when none. */
function proxyCredential(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    const { username, password } = new URL(withScheme(value));
    return password || username || undefined;
  } catch {
    // Not a URL: it is refused before use, and the refusal prints displayProxyUrl's form; mask what looks like one.
    return /\/\/(?:[^:@/]*:)?([^@/]+)@/.exec(value)?.[1];
  }
}

/** Whether a proxy URL carries a credential (a password, or a user name alone). */
export function hasProxyCredential(value: string | undefined): boolean {
  return proxyCredential(value) !== undefined;
}
