import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkApps, EmulatorConfigError, loadAppsFile, parseAppSpec, parseAppsJson } from '../../../src/emulator/apps.js';

describe('parseAppSpec', () => {
  it('splits id:secret at the first colon', () => {
    expect(parseAppSpec('a:s')).toEqual({ id: 'a', secret: 's' });
    expect(parseAppSpec('a:s:with:colons')).toEqual({ id: 'a', secret: 's:with:colons' });
  });

  it.each(['a', ':s', 'a:', ''])('refuses %j with a fix', (spec) => {
    expect(() => parseAppSpec(spec)).toThrow(EmulatorConfigError);
    try {
      parseAppSpec(spec);
    } catch (error) {
      expect((error as EmulatorConfigError).hint).toMatch(/--app my-app:my-secret/);
    }
  });
});

describe('parseAppsJson', () => {
  it('accepts {"apps": [...]} and a bare array', () => {
    const apps = [{ id: 'a', secret: 's', disabled: true }, { id: 'b', secret: 't' }];
    expect(parseAppsJson({ apps }, 'f')).toEqual(apps);
    expect(parseAppsJson(apps, 'f')).toEqual(apps);
  });

  it.each([
    [{}, /expected an "apps" array/],
    [[], /empty/],
    [[1], /apps\[0\] is not an object/],
    [[{ secret: 's' }], /apps\[0\]\.id/],
    [[{ id: 'a' }], /apps\[0\]\.secret/],
    [[{ id: 'a', secret: 's', disabled: 'yes' }], /disabled must be true or false/],
    [[{ id: 'a', secret: 's', secert: 'x' }], /unknown field "secert" \(did you mean "secret"\?\)/],
    [[{ id: 'a', secret: 's', disable: true }], /unknown field "disable" \(did you mean "disabled"\?\)/],
    [[{ id: 'a', secret: 's', colour: 1 }], /unknown field "colour"$/],
  ])('explains what is wrong with %j', (json, pattern) => {
    expect(() => parseAppsJson(json, 'apps.json')).toThrow(pattern);
  });

  it('refuses duplicate IDs', () => {
    expect(() => checkApps([{ id: 'a', secret: 's' }, { id: 'a', secret: 't' }])).toThrow(/configured twice/);
  });
});

describe('loadAppsFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pushctl-apps-'));

  it('reads a file', async () => {
    const path = join(dir, 'ok.json');
    writeFileSync(path, '{"apps":[{"id":"a","secret":"s"}]}');
    await expect(loadAppsFile(path)).resolves.toEqual([{ id: 'a', secret: 's' }]);
  });

  it('names a missing file and bad JSON', async () => {
    await expect(loadAppsFile(join(dir, 'missing.json'))).rejects.toThrow(/cannot read apps file .*ENOENT/);
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{"apps": [');
    await expect(loadAppsFile(path)).rejects.toThrow(/is not valid JSON/);
  });
});
