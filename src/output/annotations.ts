// Validation findings as GitHub annotations, at the line and column of the offending value in the message
// file, so they show on the pull request's diff.
import { relative, resolve, sep } from 'node:path';
import type { Ctx } from '../context.js';
import type { MessageInputOptions } from '../input/read-message-input.js';
import { jsonPathPosition } from '../message/json-position.js';
import type { MessageIssue } from '../message/types.js';
import { annotation } from './workflow-commands.js';

export interface AnnotatedFile {
  /** The path as the runner resolves it: relative to the workspace, with forward slashes. */
  name: string;
  text: string;
}

/** The request fields each message flag sets (docs/behaviour.md#message-input); a finding under one of them came from the flag. */
const FLAG_FIELDS: Record<string, string> = {
  type: 'type',
  ttl: 'time_to_live',
  all: 'condition',
  clientId: 'condition',
  clientIdsFile: 'condition',
  country: 'condition',
  language: 'condition',
  brand: 'condition',
  model: 'condition',
  osVersion: 'condition',
  appVersion: 'condition',
  title: 'notification.title',
  desc: 'notification.desc',
  body: 'notification.desc',
  style: 'notification.notification_type',
  icon: 'notification.icon',
  smallIcon: 'notification.small_icon',
  smallIconColor: 'notification.small_icon_color',
  buttonText: 'notification.button_text',
  openApp: 'notification',
  openUrl: 'notification',
  openActivity: 'notification',
  data: 'data',
  dataFile: 'data',
};

/** The fields the given flags set, for formatIssueAnnotations' `fromFlags`. */
export function fieldsFromFlags(options: MessageInputOptions): string[] {
  const given = options as Record<string, unknown>;
  return Object.entries(FLAG_FIELDS)
    .filter(([flag]) => given[flag] !== undefined && given[flag] !== false)
    .map(([, field]) => field);
}

const under = (path: string, field: string) => path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`);

/**
 * The annotation lines for every error and warning. A finding gets the file position of its value, or for a
 * missing required field the position of the object that lacks it; a value a flag set (`fromFlags`), or one
 * not in the file, is annotated without a position.
 */
export function formatIssueAnnotations(
  issues: { errors: readonly MessageIssue[]; warnings: readonly MessageIssue[] },
  file?: AnnotatedFile,
  fromFlags: readonly string[] = [],
): string {
  const position = (issue: MessageIssue) => {
    if (!file || fromFlags.some((field) => under(issue.path, field))) return undefined;
    const at = jsonPathPosition(file.text, issue.path);
    return at && (!at.enclosing || issue.rule === 'required') ? at : undefined;
  };
  const one = (level: 'error' | 'warning', issue: MessageIssue) => {
    const at = position(issue);
    const where = issue.path || 'the message';
    const message = `${where}: ${issue.message}${issue.fix ? ` (fix: ${issue.fix})` : ''}`;
    const title = `pushctl: ${issue.rule}`;
    return annotation(level, message, at && file ? { file: file.name, line: at.line, col: at.column, title } : { title });
  };
  return [...issues.errors.map((i) => one('error', i)), ...issues.warnings.map((i) => one('warning', i))].join('');
}

/**
 * Under GitHub Actions (GITHUB_ACTIONS=true), writes the findings as workflow commands on stderr, which the
 * runner reads as it reads stdout, so stdout stays the command's own (a --json document, a message body).
 */
export async function annotateIssues(
  issues: { errors: readonly MessageIssue[]; warnings: readonly MessageIssue[] },
  options: MessageInputOptions,
  ctx: Pick<Ctx, 'stderr' | 'env' | 'cwd'>,
): Promise<void> {
  if (ctx.env.GITHUB_ACTIONS !== 'true' || issues.errors.length + issues.warnings.length === 0) return;
  let file: AnnotatedFile | undefined;
  // The message file is read again rather than threaded through the commands: it is small, and a file from
  // stdin cannot be pointed at on a diff anyway.
  if (options.file !== undefined && options.file !== '-') {
    const full = resolve(ctx.cwd, options.file);
    // Loaded here, under Actions only: every other send would pay for the module at start-up.
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(full, 'utf8').catch(() => undefined);
    const name = relative(ctx.env.GITHUB_WORKSPACE ?? ctx.cwd, full).split(sep).join('/');
    if (text !== undefined) file = { name, text };
  }
  ctx.stderr.write(formatIssueAnnotations(issues, file, fieldsFromFlags(options)));
}
