// The variant rules (docs/behaviour.md#audiences) as a table: who gets which variant, and what is refused.
import { describe, expect, it } from 'vitest';
import { mergeVariant, planVariants, variantFor, type VariantAudience } from '../../../src/message/variants.js';

const BASE = { type: 1, time_to_live: 3600, condition: { type: 2 }, notification: { title: 'New release', desc: 'Faster sends' } };
const VARIANTS = { fr: { notification: { title: 'Nouvelle version' } }, 'pt-BR': { notification: { title: 'Nova versão', desc: 'Mais rápido' } } };

describe('variantFor: exact tag, then bare language, else none', () => {
  const table: [string | undefined, string | undefined][] = [
    ['fr', 'fr'], // exact
    ['FR', 'fr'], // case-blind
    ['fr-CA', 'fr'], // bare language
    ['pt-BR', 'pt-BR'], // exact beats bare
    ['pt_br', 'pt-BR'], // underscore form of the same tag
    ['pt-PT', undefined], // no "pt" variant: the base
    ['de', undefined], // none
    [undefined, undefined], // a device of unknown language
    ['', undefined],
  ];
  for (const [language, expected] of table) {
    it(`${JSON.stringify(language)} → ${expected ?? 'base'}`, () => expect(variantFor(language, Object.keys(VARIANTS))).toBe(expected));
  }
});

describe('planVariants', () => {
  it('client IDs: one request per variant used, base last, every ID in exactly one', () => {
    const audience: VariantAudience = { kind: 'client_ids', recipients: [{ id: 'a', language: 'fr-CA' }, { id: 'b', language: 'de' }, { id: 'c', language: 'pt-BR' }, { id: 'd', language: 'fr' }, { id: 'e' }] };
    const plan = planVariants(BASE, VARIANTS, audience);
    expect(plan).toEqual({
      ok: true,
      unused: [],
      requests: [
        { language: 'fr', clientIds: ['a', 'd'], message: { ...BASE, notification: { title: 'Nouvelle version', desc: 'Faster sends' } } },
        { language: 'pt-BR', clientIds: ['c'], message: { ...BASE, notification: { title: 'Nova versão', desc: 'Mais rápido' } } },
        { language: null, clientIds: ['b', 'e'], message: BASE },
      ],
    });
  });

  it('client IDs all in one language: no base request, and the unused variant is named', () => {
    const plan = planVariants(BASE, VARIANTS, { kind: 'client_ids', recipients: [{ id: 'a', language: 'fr' }] });
    expect(plan).toMatchObject({ ok: true, unused: ['pt-BR'], requests: [{ language: 'fr', clientIds: ['a'] }] });
  });

  it('condition targeting with --language: each variant to its languages, the base to the rest listed', () => {
    const plan = planVariants(BASE, VARIANTS, { kind: 'targeting', targeting: { country: ['BR', 'CA'], language: ['fr', 'fr-CA', 'pt-BR', 'en'] } });
    expect(plan.ok && plan.requests.map((r) => [r.language, r.targeting])).toEqual([
      ['fr', { country: ['BR', 'CA'], language: ['fr', 'fr-CA'] }],
      ['pt-BR', { country: ['BR', 'CA'], language: ['pt-BR'] }],
      [null, { country: ['BR', 'CA'], language: ['en'] }],
    ]);
  });

  it('condition targeting whose --language every variant covers: no request for the base message', () => {
    const plan = planVariants(BASE, VARIANTS, { kind: 'targeting', targeting: { language: ['fr-CA', 'pt-BR'] } });
    expect(plan.ok && plan.requests.map((r) => [r.language, r.targeting?.language])).toEqual([
      ['fr', ['fr-CA']],
      ['pt-BR', ['pt-BR']],
    ]);
  });

  // A request to a bare language reaches its regions' devices too (docs/behaviour.md#devices): a region sent
  // another request would get both messages.
  it('condition targeting that sends fr and fr-CA in different requests is refused: fr-CA devices would get both', () => {
    const plan = planVariants(BASE, { ...VARIANTS, 'fr-CA': { notification: { title: 'Allo' } } }, { kind: 'targeting', targeting: { language: ['fr', 'fr-CA', 'en'] } });
    expect(plan).toMatchObject({ ok: false });
    if (plan.ok) return;
    expect(plan.message).toBe('--language fr and fr-CA go to different requests (the fr variant, the fr-CA variant), and a request to fr reaches fr-CA devices too: they would get both');
    expect(plan.fix).toBe('list the regions of fr to reach, each as fr-XX, instead of fr, or leave fr-CA out so that its devices get the fr variant');
  });

  it('the base message to a bare language and a variant to one of its regions is refused the same way', () => {
    const plan = planVariants(BASE, { 'pt-BR': VARIANTS['pt-BR'] }, { kind: 'targeting', targeting: { language: ['pt', 'pt-BR'] } });
    expect(plan).toMatchObject({ ok: false, message: expect.stringMatching(/^--language pt and pt-BR go to different requests \(the base message, the pt-BR variant\)/) });
  });

  it('an audience of the config file is named in that refusal, with its file', () => {
    const plan = planVariants(BASE, { 'pt-BR': VARIANTS['pt-BR'] }, { kind: 'targeting', targeting: { language: ['pt', 'pt-BR'] } }, { name: 'latam', file: 'pushctl.json' });
    expect(plan).toMatchObject({ ok: false, message: expect.stringMatching(/^audience "latam" lists pt and pt-BR, which go to different requests/), fix: expect.stringContaining('in the targeting of audience "latam" in pushctl.json') });
  });

  it('condition targeting without --language is refused: the service cannot address "every other language"', () => {
    const plan = planVariants(BASE, VARIANTS, { kind: 'targeting', targeting: { country: ['IN'] } });
    expect(plan).toMatchObject({ ok: false });
    if (plan.ok) return;
    expect(plan.message).toContain('the service cannot address "every other language"');
    expect(plan.fix).toContain('--language fr,pt-BR,en');
  });

  it('--all is refused with the same reason, and the fix says what to write instead', () => {
    const plan = planVariants(BASE, VARIANTS, { kind: 'all' });
    expect(plan).toMatchObject({ ok: false, message: expect.stringMatching(/^every device with variants: the service cannot address "every other language"/) });
    if (!plan.ok) expect(plan.fix).toMatch(/^name the languages to reach instead, e\.g\. --language /);
  });

  it('without variants: the base message as it is, to the whole audience (--all included)', () => {
    expect(planVariants(BASE, {}, { kind: 'all' })).toEqual({ ok: true, unused: [], requests: [{ language: null, message: BASE }] });
    expect(planVariants(BASE, {}, { kind: 'client_ids', recipients: [{ id: 'a', language: 'fr' }] })).toMatchObject({ requests: [{ language: null, clientIds: ['a'] }] });
  });

  it('a variant that sets condition is refused', () => {
    expect(planVariants(BASE, { fr: { condition: { type: 0 } } }, { kind: 'client_ids', recipients: [] })).toMatchObject({ ok: false, message: expect.stringContaining('variants.fr sets "condition"') });
  });
});

describe('mergeVariant', () => {
  it('merges objects field by field and replaces the rest', () => {
    expect(mergeVariant({ notification: { title: 'a', desc: 'b' }, data: { k: '1' }, time_to_live: 60 }, { notification: { title: 'x' }, data: { j: '2' }, time_to_live: 120 })).toEqual({
      notification: { title: 'x', desc: 'b' },
      data: { k: '1', j: '2' },
      time_to_live: 120,
    });
  });
});
