// `{{release.tag}}`, `{{release.name}}`, `{{release.url}}`, `{{release.text}}` in the action
// (docs/behaviour.md#audiences): filled from the payload of the `release` event that started the workflow.
// Pure: the caller reads GITHUB_EVENT_PATH and passes the text in.
import { usageError } from '../errors.js';
import { cutForDisplay, DESC_DISPLAY_CHARS } from '../message/display-limits.js';
import { markdownToText } from './markdown-text.js';

/** Placeholders under `release.` that this event can or cannot fill. */
export type ReleaseVars =
  | { available: true; vars: Record<string, string>; warnings: string[] }
  | { available: false; event: string };

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The release variables of a workflow run: from `payload` (the event file's text) when `event` is
 * `release`, else unavailable, naming the event. A release body is Markdown: it becomes plain text, cut at
 * what a notification shows (display-limits.ts), with a warning when cut.
 */
export function releaseVars(event: string | undefined, payload: string | undefined): ReleaseVars {
  if (event !== 'release') return { available: false, event: event || 'unknown' };
  if (payload === undefined) throw usageError('this is a release event, but GITHUB_EVENT_PATH names no readable event file', 'run the action in a GitHub Actions job started by a release');
  let release: Record<string, unknown>;
  try {
    const parsed = JSON.parse(payload) as { release?: unknown };
    if (typeof parsed.release !== 'object' || parsed.release === null) throw new Error('no release object');
    release = parsed.release as Record<string, unknown>;
  } catch {
    throw usageError('the release event file (GITHUB_EVENT_PATH) holds no "release" object', 'run the action in a GitHub Actions job started by a release');
  }
  const tag = str(release.tag_name);
  const text = markdownToText(str(release.body));
  const cut = cutForDisplay(text, DESC_DISPLAY_CHARS);
  const warnings = cut.cut
    ? [`release.text: the release notes are ${cut.length} characters as plain text; cut to the ${DESC_DISPLAY_CHARS} a notification shows (ending "…")`]
    : [];
  return {
    available: true,
    // A release without a title shows its tag on GitHub: the name does the same.
    vars: { 'release.tag': tag, 'release.name': str(release.name) || tag, 'release.url': str(release.html_url), 'release.text': cut.shown },
    warnings,
  };
}

/** Why a `{{release.*}}` placeholder cannot be filled on this event: the error the message's assembly raises. */
export function releaseUnavailable(event: string) {
  return {
    prefix: 'release.',
    error: (name: string, path: string) =>
      usageError(
        `{{${name}}} at ${path || 'the top level'} is filled from a release, but this workflow run was started by a "${event}" event`,
        'run this step on: release (types: [published]), or give sample values in vars: (e.g. release.tag=v1.0.0) to check the file',
      ),
  };
}
