// A message file's variants (docs/behaviour.md#variants): taken off the message, each merged over the base and
// checked whole, its issues named with its language.
import { describe, expect, it } from 'vitest';
import { validateAssembled } from '../../../src/message/validate-assembled.js';
import { validateWithVariants } from '../../../src/message/validate-variants.js';

const BASE = { type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'New release', desc: 'Faster sends' } };
const check = (message: object, strict = false) => validateWithVariants({ message: { ...message }, notes: [] }, { strict }, validateAssembled);

describe('validateWithVariants', () => {
  it('gives every variant whole, as sent, and the base without "variants"', () => {
    const result = check({ ...BASE, variants: { fr: { notification: { title: 'Nouvelle version' } } } });
    expect(result.errors).toEqual([]);
    expect(result.body).toEqual(BASE);
    expect(result.variants).toEqual({ fr: { ...BASE, notification: { title: 'Nouvelle version', desc: 'Faster sends' } } });
  });

  it('names a variant\'s finding with its language, and does not repeat the base\'s own', () => {
    const long = 'Une nouvelle version de votre application préférée est disponible';
    const result = check({ ...BASE, time_to_live: 3_000_000, variants: { fr: { notification: { title: long } } } });
    expect(result.warnings.map((w) => w.path)).toEqual(['time_to_live', 'variants.fr: notification.title']);
    const strict = check({ ...BASE, variants: { fr: { notification: { title: long } } } }, true);
    expect(strict.body).toBeUndefined();
    expect(strict.errors.map((e) => e.path)).toEqual(['variants.fr: notification.title']);
  });

  it('names an error of the base message once, not again for every variant that inherits it', () => {
    const result = check({ ...BASE, condition: { type: 1, targeting: { country: ['Narnia'] } }, variants: { fr: { notification: { title: 'Bonjour' } }, de: { notification: { title: 'Hallo' } } } });
    expect(result.body).toBeUndefined();
    expect(result.errors.map((e) => e.path)).toEqual(['condition.targeting.country[0]']);
  });

  it('refuses a variant that is invalid as a whole message, one that sets condition, and a tag that is no language', () => {
    const result = check({ ...BASE, variants: { fr: { notification: { title: '', desc: '' } }, de: { condition: { type: 0 } }, French: { notification: { title: 'x' } } } });
    expect(result.body).toBeUndefined();
    expect(result.errors.map((e) => e.path)).toEqual(['variants.de.condition', 'variants.French']);
    const blank = check({ ...BASE, variants: { fr: { notification: { title: '', desc: '' } } } });
    expect(blank.errors.map((e) => e.path)).toEqual(['variants.fr: notification']);
  });

  it('refuses "variants" that is not an object of languages', () => {
    expect(check({ ...BASE, variants: [] }).errors.map((e) => e.path)).toEqual(['variants']);
    expect(check({ ...BASE, variants: {} }).errors.map((e) => e.path)).toEqual(['variants']);
  });
});
