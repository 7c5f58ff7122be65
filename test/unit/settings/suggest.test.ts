import { describe, expect, it } from 'vitest';
import { describeIssues } from '../../../src/settings/config-issues.js';
import { settingsSchemas } from '../../../src/settings/schema.js';
import { nearest } from '../../../src/suggest.js';

describe('nearest', () => {
  it.each([
    ['appid', 'appId'],
    ['app_id', 'appId'],
    ['secret', 'appSecret'],
    ['baseURL', 'baseUrl'],
    ['regoin', 'region'],
    ['profile', 'profiles'],
    ['colour', undefined],
  ])('%s → %s', (input, expected) => {
    expect(nearest(input, ['appId', 'appSecret', 'region', 'baseUrl', 'timeout', 'profiles'])).toBe(expected);
  });
});

describe('describeIssues', () => {
  function problems(raw: unknown) {
    const parsed = settingsSchemas().configFileSchema.safeParse(raw);
    if (parsed.success) throw new Error('expected invalid');
    return describeIssues(parsed.error.issues, raw);
  }

  it('names an unknown key and the nearest known one', () => {
    expect(problems({ appid: 'x' })).toEqual([{ text: 'unknown key "appid" (did you mean "appId"?)', fix: 'rename "appid" to "appId"' }]);
  });

  it('names the path inside a profile', () => {
    expect(problems({ profiles: { ci: { regoin: 'india' } } })[0]?.text).toBe('unknown key "profiles.ci.regoin" (did you mean "region"?)');
  });

  // Only the first problem's fix is the hint: every other unknown key carries its guess in the problem itself.
  it('each unknown key of several says its nearest', () => {
    expect(problems({ appid: 'x', profiles: { eu: { baseURL: 'http://x' } } }).map((p) => p.text)).toEqual(['unknown key "profiles.eu.baseURL" (did you mean "baseUrl"?)', 'unknown key "appid" (did you mean "appId"?)']);
  });

  it('explains a wrong type without quoting the value', () => {
    const [problem] = problems({ appSecret: 12345678 });
    expect(problem?.text).toBe('"appSecret" must be a string, not a number');
    expect(JSON.stringify(problem)).not.toContain('12345678');
  });

  it('explains a timeout without a unit', () => {
    expect(problems({ timeout: '10' })[0]?.text).toContain('"timeout" must be a duration with a unit');
  });

  it('explains a file that is not an object', () => {
    expect(problems(['a'])[0]?.text).toBe('the file must hold an object of settings, not an array');
  });
});
