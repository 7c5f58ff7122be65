// The compose panel's findings come from the CLI's own rules, which speak of flags (`--ttl "1w"`, `add
// --title`) and of the message's JSON paths. The panel has fields: each finding names the field it is about
// and marks that input. Pure.
import { QUOTED_VALUE, quotesFlagLike, rewordOutside } from '../../reword.js';

/** A field of the panel: its input's name and the label it shows. */
export interface PanelField {
  name: string;
  label: string;
}

const f = (name: string, label: string): PanelField => ({ name, label });

/** Flag → field, longest flags first so `--small-icon-color` is not read as `--small-icon`. */
export const FIELD_OF_FLAG: readonly [string, PanelField][] = [
  ['--small-icon-color', f('smallIconColor', 'small icon colour')],
  ['--small-icon', f('smallIcon', 'small icon')],
  ['--button-text', f('buttonText', 'button text')],
  ['--client-id', f('clientIds', 'client IDs')],
  ['--os-version', f('osVersion', 'os_version')],
  ['--app-version', f('appVersion', 'app_version')],
  ['--open-activity', f('openContent', 'open')],
  ['--open-url', f('openContent', 'open')],
  ['--open-app', f('onTap', 'on tap')],
  ['--country', f('country', 'country')],
  ['--language', f('language', 'language')],
  ['--brand', f('brand', 'brand')],
  ['--model', f('model', 'model')],
  ['--title', f('title', 'title')],
  ['--desc', f('desc', 'text')],
  ['--body', f('desc', 'text')],
  ['--style', f('style', 'style')],
  ['--icon', f('icon', 'icon URL')],
  ['--data', f('data', 'data')],
  ['--type', f('type', 'kind')],
  ['--ttl', f('ttl', 'TTL')],
  ['--all', f('audience', 'audience')],
];

/** JSON path (as the validator reports it) → field; the first prefix that matches wins. */
const FIELD_OF_PATH: readonly [RegExp, PanelField][] = [
  [/^notification\.small_icon_color/, f('smallIconColor', 'small icon colour')],
  [/^notification\.small_icon/, f('smallIcon', 'small icon')],
  [/^notification\.button_text/, f('buttonText', 'button text')],
  [/^notification\.icon/, f('icon', 'icon URL')],
  // `notification` alone is the blank notification (neither title nor desc): the title is the field to fill.
  [/^notification(\.title)?$/, f('title', 'title')],
  [/^notification\.desc/, f('desc', 'text')],
  [/^notification\.(open_type|open_content|intent|url|activity)/, f('openContent', 'open')],
  [/^notification\.notification_type/, f('style', 'style')],
  [/^condition\.client_ids/, f('clientIds', 'client IDs')],
  [/^condition\.targeting\.country/, f('country', 'country')],
  [/^condition\.targeting\.language/, f('language', 'language')],
  [/^condition\.targeting\.brand/, f('brand', 'brand')],
  [/^condition\.targeting\.model/, f('model', 'model')],
  [/^condition\.targeting\.os_version/, f('osVersion', 'os_version')],
  [/^condition\.targeting\.app_version/, f('appVersion', 'app_version')],
  [/^condition/, f('audience', 'audience')],
  [/^data/, f('data', 'data')],
  [/^time_to_live/, f('ttl', 'TTL')],
  [/^type/, f('type', 'kind')],
];

/** The field a JSON path is about, or undefined (the message as a whole). */
export function fieldOfPath(path: string): PanelField | undefined {
  return FIELD_OF_PATH.find(([pattern]) => pattern.test(path))?.[1];
}

/** The field whose flag a CLI message names first, or undefined. */
export function fieldOfMessage(text: string): { flag: string; field: PanelField } | undefined {
  let found: { flag: string; field: PanelField; at: number } | undefined;
  for (const [flag, field] of FIELD_OF_FLAG) {
    const at = new RegExp(`${flag}(?![\\w-])`).exec(text)?.index;
    if (at !== undefined && (found === undefined || at < found.at)) found = { flag, field, at };
  }
  return found && { flag: found.flag, field: found.field };
}

/**
 * `--ttl "1w" is not a duration` → `TTL "1w" is not a duration`; `add --title` → `add title`. What a field was
 * given, quoted back (`--ttl "--title"`), stays as typed (src/reword.ts).
 */
export const inPanelTerms = (text: string): string => rewordOutside(text, QUOTED_VALUE, fieldTerms, quotesFlagLike);

function fieldTerms(text: string): string {
  let out = text.replace(/\bpushctl validate\b/g, 'the check').replace(/\buse pushctl dry-run\b/g, 'tick "dry run"');
  for (const [flag, field] of FIELD_OF_FLAG) out = out.replace(new RegExp(`${flag}(?![\\w-])(?:=| )?`, 'g'), (match) => `${field.label}${match.length > flag.length ? ' ' : ''}`);
  return out;
}
