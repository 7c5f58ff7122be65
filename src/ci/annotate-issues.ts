// Validation findings as GitHub annotations, at the line and column of the offending value in the message
// file, so they show on the pull request's diff.
import { readFile } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import type { Ctx } from '../context.js';
import { jsonPathPosition } from '../message/json-position.js';
import type { MessageIssue } from '../message/types.js';
import { annotation } from './workflow-commands.js';

export interface AnnotatedFile {
  /** The path as the runner resolves it: relative to the workspace, with forward slashes. */
  name: string;
  text: string;
}

/** The annotation lines for every error and warning; a finding not found in the file gets no position. */
export function formatIssueAnnotations(issues: { errors: readonly MessageIssue[]; warnings: readonly MessageIssue[] }, file?: AnnotatedFile): string {
  const one = (level: 'error' | 'warning', issue: MessageIssue) => {
    const at = file ? jsonPathPosition(file.text, issue.path) : undefined;
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
  options: { file?: string },
  ctx: Pick<Ctx, 'stderr' | 'env' | 'cwd'>,
): Promise<void> {
  if (ctx.env.GITHUB_ACTIONS !== 'true' || issues.errors.length + issues.warnings.length === 0) return;
  let file: AnnotatedFile | undefined;
  // The message file is read again rather than threaded through the commands: it is small, and a file from
  // stdin cannot be pointed at on a diff anyway.
  if (options.file !== undefined && options.file !== '-') {
    const full = resolve(ctx.cwd, options.file);
    const text = await readFile(full, 'utf8').catch(() => undefined);
    const name = relative(ctx.env.GITHUB_WORKSPACE ?? ctx.cwd, full).split(sep).join('/');
    if (text !== undefined) file = { name, text };
  }
  ctx.stderr.write(formatIssueAnnotations(issues, file));
}
