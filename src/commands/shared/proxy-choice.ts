// The proxy a send goes through: resolved from --proxy, the environment and the config file, its credential
// (a password, or a user name given alone as token proxies take it) handed to the secret scrubber before
// anything can print it.
import type { ProxyInUse } from '../../client/proxy-agent.js';
import type { LoadedSettings } from '../../settings/load-settings.js';
import { displayProxyUrl, hasProxyCredential, proxySecrets, resolveProxy, type ProxyChoice } from '../../settings/proxy.js';
import type { SecretSink } from '../../output/redact.js';

export function choosePushProxy(
  options: { proxy?: string },
  loaded: Pick<LoadedSettings, 'file' | 'settings'>,
  baseUrl: string,
  env: Record<string, string | undefined>,
  secrets: SecretSink,
): ProxyInUse | undefined {
  const choice: ProxyChoice = resolveProxy({ flag: options.proxy, env, file: loaded.file, profile: loaded.settings.profile, target: new URL(baseUrl) });
  // Every candidate's credential is a secret, whether or not it is the one in effect.
  for (const value of [options.proxy, env.https_proxy, env.HTTPS_PROXY, env.http_proxy, env.HTTP_PROXY, choice.url]) {
    for (const secret of proxySecrets(value)) secrets.add(secret, 'the proxy credential');
  }
  if (hasProxyCredential(options.proxy)) {
    // Masking our own output cannot hide an argument from the process list or the shell's history.
    secrets.warn?.(
      'the proxy credential in --proxy is visible to other users in the process list (ps) and stays in your shell history: set HTTPS_PROXY (or HTTP_PROXY) in the environment, or the `proxy` key of the config file, instead',
    );
  }
  return choice.url === undefined ? undefined : { url: choice.url, display: displayProxyUrl(choice.url), source: choice.source };
}
