// The compose panel's fields are the CLI's message flags: one list of flag words is built from them, read
// once as `MessageFlags` (what commander hands assembleMessage) and once as the `pushctl send` command to
// copy. The page thus builds the body with the CLI's own assembleMessage and cannot drift from it. Pure.
import type { MessageFlags } from '../../message/assemble.js';
import { flagAndValue } from '../../shell-quote.js';
import { escapeInvisibleInJson } from './invisible-characters.js';

export interface ComposeFields {
  type: 'notification' | 'data';
  audience: 'all' | 'client-ids' | 'targeting';
  /** Comma- or line-separated, as the flags take them. */
  clientIds: string;
  country: string;
  language: string;
  brand: string;
  model: string;
  osVersion: string;
  appVersion: string;
  title: string;
  desc: string;
  style: 'system' | 'button';
  buttonText: string;
  icon: string;
  smallIcon: string;
  smallIconColor: string;
  onTap: 'app' | 'url' | 'activity';
  openContent: string;
  /** `key=value`, one a line. */
  data: string;
  ttl: string;
  dryRun: boolean;
}

export const EMPTY_FIELDS: ComposeFields = {
  type: 'notification', audience: 'all', clientIds: '', country: '', language: '', brand: '', model: '', osVersion: '', appVersion: '',
  title: '', desc: '', style: 'system', buttonText: '', icon: '', smallIcon: '', smallIconColor: '', onTap: 'app', openContent: '', data: '', ttl: '', dryRun: false,
};

const TARGETING = [
  ['country', '--country', 'country'],
  ['language', '--language', 'language'],
  ['brand', '--brand', 'brand'],
  ['model', '--model', 'model'],
  ['osVersion', '--os-version', 'osVersion'],
  ['appVersion', '--app-version', 'appVersion'],
] as const;

/** The fields that make up a targeting audience. */
export const TARGETING_FIELDS = TARGETING.map(([key]) => key);

/** The flags the fields stand for, in the order a person would type them; blank fields give no flag. */
export function flagWords(fields: ComposeFields): [flag: string, value?: string][] {
  const words: [string, string?][] = [];
  const add = (flag: string, value: string) => value.trim() !== '' && words.push([flag, value]);
  if (fields.audience === 'all') words.push(['--all']);
  if (fields.audience === 'client-ids') add('--client-id', fields.clientIds.split(/[\s,]+/).filter(Boolean).join(','));
  if (fields.audience === 'targeting') for (const [key, flag] of TARGETING) add(flag, fields[key]);
  if (fields.type === 'data') {
    words.push(['--type', 'data']);
    // A value's spaces at its end are part of it (`--data 'note=a  '` keeps them); only those before the key go.
    for (const line of fields.data.split('\n')) if (line.trim() !== '') words.push(['--data', line.trimStart()]);
  } else {
    add('--title', fields.title);
    add('--desc', fields.desc);
    if (fields.style === 'button') {
      words.push(['--style', 'button']);
      add('--icon', fields.icon);
      add('--button-text', fields.buttonText);
    } else {
      add('--small-icon', fields.smallIcon);
      add('--small-icon-color', fields.smallIconColor);
    }
    if (fields.onTap === 'url') words.push(['--open-url', fields.openContent]);
    if (fields.onTap === 'activity') words.push(['--open-activity', fields.openContent]);
  }
  add('--ttl', fields.ttl);
  return words;
}

/** The same words as commander's options object. */
export function flagsOf(words: readonly [string, string?][]): MessageFlags {
  const flags: MessageFlags & Record<string, unknown> = {};
  const repeatable = new Set(['--client-id', '--country', '--language', '--brand', '--model', '--os-version', '--app-version', '--data']);
  for (const [flag, value] of words) {
    const key = flag.slice(2).replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
    if (value === undefined) flags[key] = true;
    else if (repeatable.has(flag)) flags[key] = [...((flags[key] as string[] | undefined) ?? []), value];
    else flags[key] = value;
  }
  return flags;
}


export interface Destination {
  baseUrl: string;
  appId: string;
  dryRun: boolean;
}

/** `pushctl send … --base-url … --app-id …`; the secret is never part of it (PUSHCTL_APP_SECRET is). */
export function sendCommand(words: readonly [string, string?][], to: Destination): string {
  const given: [string, string?][] = [...words, ['--base-url', to.baseUrl], ['--app-id', to.appId]];
  return ['pushctl', to.dryRun ? 'dry-run' : 'send', ...given.map(([flag, value]) => (value === undefined ? flag : flagAndValue(flag, value)))].join(' ');
}

/**
 * The pasted JSON as a command: the message on stdin through a quoted here-document, which the shell leaves as
 * is. Its invisible characters are written as `\u202e` escapes, the same value once parsed, so the command
 * reads as what it sends (a textarea's value has no carriage return, the one such character JSON allows
 * outside a string; a leading byte-order mark, the other, is trimmed with the value).
 */
export function sendJsonCommand(pasted: string, to: Destination): string {
  const json = escapeInvisibleInJson(pasted.replace(/^\uFEFF/, ''));
  let end = 'JSON';
  while (json.split('\n').includes(end)) end += '_';
  return `${sendCommand([['-f', '-']], to)} <<'${end}'\n${json.replace(/\n?$/, '\n')}${end}`;
}
