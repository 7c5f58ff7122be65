// A GitHub release's body, written in Markdown, as the plain text a notification shows: markdown-it reads it
// into tokens (the same CommonMark-and-tables reading GitHub gives it), and only the words are kept. Rendering
// HTML and stripping tags would keep what a tag hides and lose what an entity means; tokens have neither.
import MarkdownIt from 'markdown-it';

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

// Made on first use: every action run loads this file, and only a release announcement needs a parser.
let parser: InstanceType<typeof MarkdownIt> | undefined;

/** The words of an inline token: text and code as written, links as their text, images as their alt text. */
function inlineText(children: readonly Token[]): string {
  let out = '';
  for (const child of children) {
    if (child.type === 'text' || child.type === 'code_inline') out += child.content;
    else if (child.type === 'softbreak') out += ' ';
    else if (child.type === 'hardbreak') out += '\n';
    else if (child.type === 'image') out += inlineText(child.children ?? []);
  }
  return out;
}

/** `markdown` as plain text: one line per paragraph, heading, list item or table row; blank lines collapsed. */
export function markdownToText(markdown: string): string {
  const lines: string[] = [];
  // What to put before the next block's text: a list item's bullet or number.
  const lists: { ordered: boolean; next: number }[] = [];
  let prefix = '';
  let row: string[] | undefined;
  // Raw HTML is read as HTML tokens (and dropped), not shown as text: "<details>" in a release is markup.
  parser ??= new MarkdownIt('default', { html: true });
  for (const token of parser.parse(markdown, {})) {
    switch (token.type) {
      case 'bullet_list_open':
        lists.push({ ordered: false, next: 0 });
        break;
      case 'ordered_list_open':
        lists.push({ ordered: true, next: Number(token.attrGet('start') ?? 1) });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        break;
      case 'list_item_open': {
        const list = lists.at(-1);
        prefix = `${'  '.repeat(Math.max(0, lists.length - 1))}${list?.ordered ? `${list.next++}. ` : '• '}`;
        break;
      }
      case 'tr_open':
        row = [];
        break;
      case 'tr_close':
        lines.push(row!.join(' | '));
        row = undefined;
        break;
      case 'inline': {
        const text = inlineText(token.children ?? []).trim();
        if (row) row.push(text);
        else if (text !== '') lines.push(prefix + text);
        prefix = '';
        break;
      }
      case 'fence':
      case 'code_block':
        lines.push(...token.content.replace(/\n$/, '').split('\n'));
        break;
      default:
        // Paragraph and heading boundaries, rules, raw HTML: nothing of their own to show.
        break;
    }
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}
