// The README says `npm ci` needs no install scripts (issue 31): npm then warns about every dependency with
// one that package.json does not decide on, so each must be declined in "allowScripts", and the build must
// work without them (every other test runs on the build such an install made).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, ROOT), 'utf8');

describe('install scripts', () => {
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { hasInstallScript?: boolean }> };
  const allow = (JSON.parse(read('package.json')) as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
  const withScripts = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));

  it('the README promises none are needed', () => {
    expect(read('README.md')).toMatch(/npm ci +# install \(no install scripts needed/);
  });

  it.each(withScripts)('%s: declined in package.json allowScripts, so npm ci neither runs it nor warns', (name) => {
    expect(allow[name]).toBe(false);
  });
});
