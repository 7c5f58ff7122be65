// zod runs without compiling parsers (src/message/zod-jitless.ts): set before any schema is built, by every
// module that builds one.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { config } from 'zod/mini';
import { validateMessage } from '../../../src/message/validate.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

const JITLESS = resolve('src/message/zod-jitless.ts');
/** The files a source file imports, as paths of the .ts sources. */
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^import (?:(?!type )[^;]*? from )?'(\.{1,2}\/[^']+)\.js';$/gm)].map((m) => resolve(dirname(file), `${m[1]}.ts`));

describe('zod without compiled parsers', () => {
  it('is configured once the message rules are loaded, and the rules still judge', () => {
    expect(validateMessage({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi' } }).errors).toEqual([]);
    expect(validateMessage({ type: 3, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi' } }).errors[0]?.path).toBe('type');
    expect(config().jitless).toBe(true);
  });

  it('every module that builds schemas imports the setting, itself or through a module it imports', () => {
    const builders = filesUnder('src').filter((f) => f.endsWith('.ts') && /^import \* as z from 'zod\/mini';$/m.test(readFileSync(f, 'utf8')));
    expect(builders.length).toBeGreaterThan(5);
    const unset = builders.filter((f) => !importsOf(f).some((i) => i === JITLESS || importsOf(i).includes(JITLESS)));
    expect(unset).toEqual([]);
  });
});
