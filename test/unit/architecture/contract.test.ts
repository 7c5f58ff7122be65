// The contract lives in the repository (docs/behaviour.md, docs/design.md), and code cites it by anchor. A
// citation of a document outside the repository, or of an anchor that a rename has left dangling, fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Every file under `dir`, recursively, as paths relative to the working directory. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown document defines: one per heading (code blocks skipped). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) anchors.add(slugOf(heading[1]!));
  }
  return anchors;
}

/** `docs/<name>.md#<anchor>` citations in a text that name no heading of that document. */
export function danglingCitations(text: string, docs: ReadonlyMap<string, Set<string>>): string[] {
  const dangling: string[] = [];
  for (const [citation, doc, anchor] of text.matchAll(/docs\/([\w-]+\.md)#([\w-]+)/g)) {
    if (!docs.get(doc!)?.has(anchor!)) dangling.push(citation);
  }
  return dangling;
}

const DOCS = new Map(['behaviour.md', 'design.md'].map((name) => [name, anchorsOf(readFileSync(join('docs', name), 'utf8'))]));
// The tests cite the documents too, to say what they hold the code to; this file cites a missing anchor on purpose.
const CITING = [...filesUnder('src'), ...filesUnder('test'), ...filesUnder('bench'), ...filesUnder('scripts'), 'eslint.config.js'].filter(
  (f) => /\.(ts|mjs|cjs|js|css|html)$/.test(f) && !f.endsWith('architecture/contract.test.ts'),
);

describe('the contract in the repository', () => {
  it('no file under src/ cites SPEC, a document outside the repository', () => {
    const citing = filesUnder('src').filter((f) => /\bSPEC\b/.test(readFileSync(f, 'utf8')));
    expect(citing).toEqual([]);
  });

  it('no class under src/ brands itself for instanceof: the build shares one copy of each error class', () => {
    expect(filesUnder('src').filter((f) => readFileSync(f, 'utf8').includes('Symbol.hasInstance'))).toEqual([]);
  });

  it('every docs/*.md#anchor cited in the code names a heading of that document', () => {
    const dangling = CITING.flatMap((f) => danglingCitations(readFileSync(f, 'utf8'), DOCS).map((c) => `${f}: ${c}`));
    expect(dangling).toEqual([]);
    // The check has something to check: the code does cite the documents.
    expect(CITING.filter((f) => readFileSync(f, 'utf8').includes('docs/behaviour.md#')).length).toBeGreaterThan(20);
  });

  it('the links between the two documents name headings that exist', () => {
    const design = readFileSync('docs/design.md', 'utf8').replace(/\]\(behaviour\.md#/g, '](docs/behaviour.md#');
    const behaviour = readFileSync('docs/behaviour.md', 'utf8').replace(/\]\(design\.md#/g, '](docs/design.md#');
    expect([...danglingCitations(design, DOCS), ...danglingCitations(behaviour, DOCS)]).toEqual([]);
    // A link inside a document to its own heading, `[journal](#journal)`.
    const ownLinks = [...readFileSync('docs/behaviour.md', 'utf8').matchAll(/\]\(#([\w-]+)\)/g)].map((m) => m[1]!);
    expect(ownLinks.filter((a) => !DOCS.get('behaviour.md')!.has(a))).toEqual([]);
  });

  it('a citation of a missing anchor is reported, and a heading makes it good', () => {
    const docs = new Map([['behaviour.md', anchorsOf('# Title\n\n## Exit codes\n\n```\n## not a heading\n```\n')]]);
    expect(danglingCitations('// see docs/behaviour.md#exit-codes', docs)).toEqual([]);
    expect(danglingCitations('// see docs/behaviour.md#journal and docs/other.md#x', docs)).toEqual(['docs/behaviour.md#journal', 'docs/other.md#x']);
    expect(danglingCitations('docs/behaviour.md#not-a-heading', docs)).toEqual(['docs/behaviour.md#not-a-heading']);
    expect(slugOf('Summary and report')).toBe('summary-and-report');
    expect(slugOf('`--once`, explained!')).toBe('--once-explained');
  });
});

/**
 * The casts that tell the compiler to stop checking: `x as never` (fits any parameter) and `x as unknown as T`
 * (any value as any type). Found in the syntax tree, so prose such as "was never sent" does not count.
 */
export function uncheckedCasts(source: string, fileName = 'probe.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node)) {
      const inner = ts.isParenthesizedExpression(node.expression) ? node.expression.expression : node.expression;
      const neverCast = node.type.kind === ts.SyntaxKind.NeverKeyword;
      const throughUnknown = ts.isAsExpression(inner) && inner.type.kind === ts.SyntaxKind.UnknownKeyword;
      if (neverCast || throughUnknown) found.push(`${fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('options and values are typed, not cast', () => {
  it('no file under src/ casts through `as never` or `as unknown as`', () => {
    const casts = filesUnder('src')
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => uncheckedCasts(readFileSync(f, 'utf8'), f));
    expect(casts).toEqual([]);
  });

  it('finds either cast, and not the words in prose', () => {
    expect(uncheckedCasts('run(options as never);')).toHaveLength(1);
    expect(uncheckedCasts('const a = b as unknown as string;')).toHaveLength(1);
    expect(uncheckedCasts('const a = (b as unknown) as string;')).toHaveLength(1);
    expect(uncheckedCasts('// the batch was never sent, as unknown as before\nconst a = b as string;')).toEqual([]);
  });
});
