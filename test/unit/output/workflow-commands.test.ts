import { describe, expect, it } from 'vitest';
import { addMask, annotation, escapeData, escapeProperty, markdownTable, outputEntry } from '../../../src/output/workflow-commands.js';
import { fieldsFromFlags, formatIssueAnnotations } from '../../../src/output/annotations.js';
import { jsonPathPosition, parseIssuePath } from '../../../src/message/json-position.js';

describe('workflow command escaping', () => {
  it('escapes % CR LF in data, and also : and , in properties', () => {
    expect(escapeData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext');
    expect(escapeProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
  });

  it('formats an annotation with its properties, skipping absent ones', () => {
    expect(annotation('error', 'bad\nvalue', { file: 'msg,1.json', line: 3, col: 19, title: 'pushctl: type' })).toBe(
      '::error file=msg%2C1.json,line=3,col=19,title=pushctl%3A type::bad%0Avalue\n',
    );
    expect(annotation('warning', 'plain')).toBe('::warning::plain\n');
  });

  it('masks each line of a multi-line secret', () => {
    expect(addMask('s3cret')).toBe('::add-mask::s3cret\n');
    expect(addMask('one\ntwo\n')).toBe('::add-mask::one\n::add-mask::two\n');
  });

  it('writes single-line outputs plainly and multi-line ones as a heredoc', () => {
    expect(outputEntry('exit-code', '0')).toBe('exit-code=0\n');
    expect(outputEntry('ids', 'a\nb', 'EOF_X')).toBe('ids<<EOF_X\na\nb\nEOF_X\n');
    expect(() => outputEntry('ids', 'a\nEOF_X', 'EOF_X')).toThrow(/delimiter/);
    expect(outputEntry('ids', 'a\nb')).toMatch(/^ids<<(ghadelimiter_[\w-]+)\na\nb\n\1\n$/);
  });

  it('keeps a markdown table whole when a cell holds | or a line break', () => {
    expect(markdownTable(['a', 'b'], [['x|y', 'p\nq']])).toBe('| a | b |\n| --- | --- |\n| x\\|y | p q |\n');
  });
});

describe('JSON positions by issue path', () => {
  const text = '{\n  "type": 1,\n  "condition": { "type": 1, "targeting": { "country": ["UK", "de"] } },\n  "a b": {"x": [1, {"y": -2}]}\n}\n';

  it('parses the paths the validator prints', () => {
    expect(parseIssuePath('condition.targeting.country[1]')).toEqual(['condition', 'targeting', 'country', 1]);
    expect(parseIssuePath('["a b"].x[1].y')).toEqual(['a b', 'x', 1, 'y']);
    expect(parseIssuePath('')).toEqual([]);
  });

  it('finds the value at a path', () => {
    expect(jsonPathPosition(text, 'type')).toEqual({ line: 2, column: 11, enclosing: false });
    expect(jsonPathPosition(text, 'condition.targeting.country[1]')).toEqual({ line: 3, column: 62, enclosing: false });
    expect(jsonPathPosition(text, '["a b"].x[1].y')).toEqual({ line: 4, column: 26, enclosing: false });
  });

  it('points a missing field at its nearest enclosing value', () => {
    expect(jsonPathPosition(text, 'condition.client_ids')).toEqual({ line: 3, column: 16, enclosing: true });
    expect(jsonPathPosition(text, 'time_to_live')).toEqual({ line: 1, column: 1, enclosing: true });
  });

  it('gives no position for a text that is not JSON', () => {
    expect(jsonPathPosition('{"a": ', 'a')).toBeUndefined();
  });
});

describe('formatIssueAnnotations', () => {
  it('points a missing required field at the object that lacks it, and a value a flag set nowhere', () => {
    const file = { name: 'm.json', text: '{\n  "type": 1,\n  "notification": { "title": "" }\n}\n' };
    const issues = {
      errors: [
        { path: 'time_to_live', rule: 'required', message: 'is required' },
        { path: 'notification.title', rule: 'length', message: 'is empty' },
      ],
      warnings: [],
    };
    expect(formatIssueAnnotations(issues, file)).toBe(
      '::error file=m.json,line=1,col=1,title=pushctl%3A required::time_to_live: is required\n' +
        '::error file=m.json,line=3,col=30,title=pushctl%3A length::notification.title: is empty\n',
    );
    // --title replaced the file's title: the offending value is not on any line of the file.
    expect(formatIssueAnnotations(issues, file, fieldsFromFlags({ title: '' }))).toContain('::error title=pushctl%3A length::notification.title: is empty\n');
    expect(fieldsFromFlags({ file: 'm.json', country: ['uk'], openApp: true, all: undefined })).toEqual(['condition', 'notification']);
  });

  it('annotates errors and warnings at their values, and without a file when the value is not in it', () => {
    const file = { name: 'msgs/release.json', text: '{\n  "time_to_live": "3600"\n}\n' };
    const out = formatIssueAnnotations(
      {
        errors: [{ path: 'time_to_live', rule: 'type', message: 'must be a whole number', fix: 'write 3600 without quotes' }],
        warnings: [{ path: 'notification.title', rule: 'length', message: 'is long' }],
      },
      file,
    );
    expect(out).toBe(
      '::error file=msgs/release.json,line=2,col=19,title=pushctl%3A type::time_to_live: must be a whole number (fix: write 3600 without quotes)\n' +
        '::warning title=pushctl%3A length::notification.title: is long\n',
    );
    expect(formatIssueAnnotations({ errors: [{ path: 'type', rule: 'required', message: 'is required' }], warnings: [] })).toBe(
      '::error title=pushctl%3A required::type: is required\n',
    );
  });
});
