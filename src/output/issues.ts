import type { MessageIssue } from '../message/types.js';
import type { Style } from './style.js';

/** One line per finding: `path: message (fix)`. */
export function formatIssue(issue: MessageIssue, style: Style): string {
  const where = issue.path ? `${style.bold(issue.path)}: ` : '';
  const fix = issue.fix ? style.dim(` — ${issue.fix}`) : '';
  return `${where}${issue.message}${fix}`;
}

export function formatIssueList(title: string, issues: readonly MessageIssue[], style: Style, mark: (s: string) => string): string {
  if (issues.length === 0) return '';
  return `${mark(title)}\n${issues.map((i) => `  ${formatIssue(i, style)}`).join('\n')}\n`;
}
