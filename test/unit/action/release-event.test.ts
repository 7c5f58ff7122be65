import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markdownToText } from '../../../src/action/markdown-text.js';
import { releaseUnavailable, releaseVars } from '../../../src/action/release-event.js';
import { DESC_DISPLAY_CHARS } from '../../../src/message/display-limits.js';
import { FIXTURES } from '../../helpers/run-cli.js';

describe('markdownToText', () => {
  it('keeps the words of a release body: headings, bullets, link text, code; drops markup and HTML comments', () => {
    const payload = readFileSync(`${FIXTURES}release-event.json`, 'utf8');
    const body = (JSON.parse(payload) as { release: { body: string } }).release.body;
    expect(markdownToText(body)).toBe(
      [
        "What's new",
        '• Hourly forecasts for the next 48 hours (#412)',
        '• Rain alerts now arrive in your language',
        '• Fixed: the widget showed --° after midnight',
        'Full Changelog: https://github.com/octo-org/weather-app/compare/v2.3.0...v2.4.0',
      ].join('\n'),
    );
  });

  it('numbers ordered lists from their start, nests, reads tables, images and entities, and keeps code blocks', () => {
    const text = markdownToText('3. one\n4. two\n   - inner\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n![logo](x.png) &amp; <b>bold</b>\n\n```\nnpm i\n```\n');
    expect(text).toBe(['3. one', '4. two', '  • inner', 'a | b', '1 | 2', 'logo & bold', 'npm i'].join('\n'));
  });

  it('an empty body is empty text', () => {
    expect(markdownToText('')).toBe('');
  });
});

describe('releaseVars', () => {
  it('fills tag, name, url and text from a release event', () => {
    const result = releaseVars('release', readFileSync(`${FIXTURES}release-event.json`, 'utf8'));
    expect(result).toMatchObject({
      available: true,
      vars: { 'release.tag': 'v2.4.0', 'release.name': 'Weather 2.4: hourly forecasts', 'release.url': 'https://github.com/octo-org/weather-app/releases/tag/v2.4.0' },
      warnings: [],
    });
  });

  it('cuts long notes at the display limit with a warning, and names an untitled release by its tag', () => {
    const body = Array.from({ length: 40 }, (_, i) => `- change number ${i}`).join('\n');
    const result = releaseVars('release', JSON.stringify({ release: { tag_name: 'v9', name: null, html_url: 'u', body } }));
    if (!result.available) throw new Error('expected a release');
    expect(Array.from(result.vars['release.text']!)).toHaveLength(DESC_DISPLAY_CHARS);
    expect(result.vars['release.text']!.endsWith('…')).toBe(true);
    expect(result.vars['release.name']).toBe('v9');
    expect(result.warnings[0]).toContain(`cut to the ${DESC_DISPLAY_CHARS} a notification shows`);
  });

  it('on another event is unavailable, and the error names the event and the placeholder', () => {
    expect(releaseVars('push', readFileSync(`${FIXTURES}push-event.json`, 'utf8'))).toEqual({ available: false, event: 'push' });
    const error = releaseUnavailable('push').error('release.tag', 'notification.title');
    expect(error.message).toBe('{{release.tag}} at notification.title is filled from a release, but this workflow run was started by a "push" event');
  });

  it('a release event file without a release object is a usage error', () => {
    expect(() => releaseVars('release', '{"action":"published"}')).toThrow('holds no "release" object');
  });
});
