// Text from outside (the service's answers, a message file's keys, the command line) in GitHub-flavoured
// Markdown, for the job summary: shown literally, never taking effect (docs/behaviour.md#trust). A line break could
// end a table row or start a block of its own, a backtick could close a code span early, and `<img …>` or
// `[x](…)` in prose would be HTML and a link, so each helper takes those away.
import { escapeControl } from './escape-control.js';

/** One line: every line break and control character shown as an escape (`\n`), never acted on. */
const oneLine = (text: string) => escapeControl(text);

/** The longest run of backticks in `text` (0 when none). */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/**
 * `text` as an inline code span: fenced by more backticks than its longest run, so no backtick in it can
 * close the span, and on one line. Inside a code span Markdown and HTML are shown, not rendered.
 */
export function codeSpan(text: string): string {
  const flat = oneLine(text);
  if (flat === '') return '` `';
  const fence = '`'.repeat(longestBacktickRun(flat) + 1);
  // A span's content that begins or ends with a backtick needs a space between it and the fence; CommonMark
  // strips one space from each side when both are there, so a leading and trailing space are kept by a pad.
  const pad = flat.startsWith('`') || flat.endsWith('`') || (flat.startsWith(' ') && flat.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A fenced code block of one or more lines: the fence is longer than any backtick run in the text. */
export function codeBlock(text: string, info = ''): string {
  const lines = text.split(/\r\n|\r|\n/).map(oneLine).join('\n');
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(lines) + 1));
  return `${fence}${info}\n${lines}\n${fence}\n`;
}

