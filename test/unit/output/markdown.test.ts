// Text from outside in the job summary, rendered by a CommonMark + GFM-tables renderer with raw HTML on (as
// GitHub renders a summary before sanitising): nothing hostile may take effect, and it reads as it arrived.
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { codeBlock, codeSpan } from '../../../src/output/markdown.js';
import { jobSummary, languageRows } from '../../../src/action/summary.js';

const md = new MarkdownIt({ html: true, linkify: true });
const render = (markdown: string) => md.render(markdown);
/** What a reader sees: the rendered HTML's text, entities decoded. */
const visible = (html: string) =>
  html.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  'key`with`<img src=x>',
  '``` fence ```',
  '`',
  ' spaced ',
  '**bold** _em_ [link](https://evil.example) ![i](https://evil.example/x.png)',
  'line one\n::error title=forged::two\r\n# heading',
  '| cell | break |',
  '&lt;b&gt; &amp; entity',
  '<script>alert(1)</script>',
  'https://evil.example/auto',
];

/** No element from outside: only the elements the wrapper itself makes. */
function expectInert(html: string, allowed: RegExp): void {
  for (const tag of html.match(/<[a-z][^>]*>/gi) ?? []) expect(tag).toMatch(allowed);
}

describe('Markdown escaping of text from outside', () => {
  it.each(HOSTILE)('codeSpan shows %j literally, on one line, as one code element', (text) => {
    const html = render(`x ${codeSpan(text)} y`);
    expectInert(html, /^<(p|code)>$/);
    expect(html.match(/<code>/g)).toHaveLength(1);
    expect(visible(html)).toContain(text.replace(/\r/g, '\\r').replace(/\n/g, '\\n'));
  });

  it('codeBlock keeps a command with backtick fences inside its block', () => {
    const html = render(`${codeBlock("pushctl send --file 'a```b.json' --title '<img src=x>'", 'sh')}after`);
    expectInert(html, /^<(pre|code class="language-sh"|p)>$/);
    expect(visible(html)).toContain("pushctl send --file 'a```b.json' --title '<img src=x>'");
  });
});

describe('the job summary', () => {
  it('renders a hostile message_id, error, field path and report path as text, with the table intact', () => {
    const summary = jobSummary({
      mode: 'send',
      exitCode: 7,
      skipped: false,
      messageIds: ['id-1\n::error title=forged::x', '`<img src=x onerror=alert(1)>`'],
      summary: { batches: { total: 2, accepted: 1, rejected: 0, in_doubt: 0, not_sent: 1 }, recipients: { total: 1001, accepted: 1000, rejected: 0, in_doubt: 0, not_sent: 1 } },
      error: { message: 'rejected: 21005 message illegal (service: "<img src=x> **pwned** [x](https://evil.example)")' },
      errors: [{ path: 'data["k`<img src=x>"]', rule: 'unknown', message: 'unknown field "<b>x</b>" | split' }],
      report: 'r`e<p>ort.json',
      advice: { command: "pushctl send -f 'x```y.json' --client-ids-file report.json", notSent: 1, inDoubt: 0, unit: 'recipients' },
    } as Parameters<typeof jobSummary>[0]);
    const html = render(summary);
    expectInert(html, /^<(h2|p|table|thead|tbody|tr|th|td|code|strong|pre|code class="language-sh")>$/);
    // The outcome table has its four rows, the findings table its one.
    expect(html.match(/<tr>/g)).toHaveLength(5 + 2);
    const text = visible(html);
    expect(text).toContain('id-1\\n::error title=forged::x');
    expect(text).toContain('`<img src=x onerror=alert(1)>`');
    expect(text).toContain('(service: "<img src=x> **pwned** [x](https://evil.example)")');
    expect(text).toContain('data["k`<img src=x>"]');
    expect(text).toContain('unknown field "<b>x</b>" | split');
    expect(text).toContain('r`e<p>ort.json');
    expect(text).toContain("pushctl send -f 'x```y.json' --client-ids-file report.json");
    expect(summary.split('\n').some((line) => line.startsWith('::'))).toBe(false);
  });

  it('counts each language of a message with variants: its client IDs, else its requests; no profile column for one target', () => {
    const counts = (total: number, accepted: number, in_doubt = 0) => ({ total, accepted, rejected: 0, in_doubt, not_sent: total - accepted - in_doubt });
    const languages = languageRows([
      { language: 'fr', label: 'fr', requests: counts(1, 1), recipients: counts(400, 400) },
      { language: 'pt-BR', label: 'pt-BR', requests: counts(2, 1, 1), recipients: counts(1200, 1000, 200) },
      { language: null, label: 'base', requests: counts(1, 0), recipients: counts(0, 0) },
    ]);
    const summary = jobSummary({ mode: 'send', exitCode: 7, skipped: false, messageIds: [], languages });
    expect(summary).toContain('| language | accepted | left |');
    expect(summary).toContain('| `fr` | 400/400 | 0 |');
    expect(summary).toContain('| `pt-BR` | 1000/1200 | 200 |');
    // A language sent by condition has requests, not client IDs, to count: the cell says which.
    expect(summary).toContain('| `base` | 0/1 request | 1 |');
    expect(render(summary).match(/<tr>/g)).toHaveLength(4);
  });
});
