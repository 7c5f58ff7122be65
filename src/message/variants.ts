// Variants by language (docs/behaviour.md#variants): the rules of which request a message with `variants`
// makes for an audience. Pure: sending uses `planVariants` for condition targeting (commands/shared/
// variant-delivery.ts) and `variantFor` for each client ID's lane (variant-recipients.ts).
import type { NamedAudience, Targeting } from './types.js';

type Json = Record<string, unknown>;

/** A message file's `"variants"`: a language tag → the fields that differ from the base message. */
export type Variants = Record<string, Json>;

/** Whom the message is for, as far as variants care. */
export type VariantAudience =
  /** Client IDs, each with its device's language when known (the CSV's `language` column). */
  | { kind: 'client_ids'; recipients: readonly { id: string; language?: string }[] }
  /** Condition targeting, with or without a `language` list. */
  | { kind: 'targeting'; targeting: Targeting }
  /** Every device. */
  | { kind: 'all' };

/** One request to make: the base message (`language: null`) or a variant merged over it. */
export interface VariantRequest {
  language: string | null;
  message: Json;
  /** For client IDs: the IDs this request carries (no ID is in two requests). */
  clientIds?: string[];
  /** For targeting: the condition's targeting, its `language` narrowed to what this request covers. */
  targeting?: Targeting;
}

export type VariantPlan =
  | { ok: true; requests: VariantRequest[]; /** Variants no recipient or listed language chose. */ unused: string[] }
  | { ok: false; message: string; fix: string };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `variant` over `base` field by field: objects (notification, data) merge, anything else replaces. */
export function mergeVariant(base: Json, variant: Json): Json {
  const merged: Json = { ...base };
  for (const [key, value] of Object.entries(variant)) {
    const under = merged[key];
    merged[key] = isObject(under) && isObject(value) ? mergeVariant(under, value) : value;
  }
  return merged;
}

// `pt_BR` (Android's locale form) and `pt-BR` (a BCP 47 tag) name the same language.
const norm = (tag: string) => tag.trim().toLowerCase().replace(/_/g, '-');

/** The variant a language takes: its exact tag first, then its bare language (`fr-CA` → `fr`); case-blind, `_` as `-`. */
export function variantFor(language: string | undefined, tags: readonly string[]): string | undefined {
  if (language === undefined || language.trim() === '') return undefined;
  const wanted = norm(language);
  const exact = tags.find((tag) => norm(tag) === wanted);
  if (exact !== undefined) return exact;
  const bare = wanted.split('-')[0]!;
  return tags.find((tag) => norm(tag) === bare);
}

/** Groups keyed by variant tag (`null` = the base message), in the variants' order with the base last. */
function ordered<T>(groups: Map<string | null, T[]>, tags: readonly string[]): [string | null, T[]][] {
  return [...tags, null].flatMap((tag) => (groups.has(tag) ? [[tag, groups.get(tag)!] as [string | null, T[]]] : []));
}

function groupBy<T>(items: readonly T[], key: (item: T) => string | null): Map<string | null, T[]> {
  const groups = new Map<string | null, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}

interface Overlap {
  bare: string;
  region: string;
  /** The requests they go to: a variant's tag, or null for the base message. */
  bareTo: string | null;
  regionTo: string | null;
}

/**
 * A bare language of one request with a region of it in another: a request to `fr` reaches `fr-CA` devices
 * too (docs/behaviour.md#devices), so those would get both messages, and no targeting can say "fr but not fr-CA".
 */
function bareAndRegionApart(groups: readonly [string | null, string[]][]): Overlap | undefined {
  for (const [bareTo, langs] of groups) {
    for (const bare of langs.filter((l) => !norm(l).includes('-'))) {
      for (const [regionTo, others] of groups) {
        const region = regionTo === bareTo ? undefined : others.find((l) => norm(l).startsWith(`${norm(bare)}-`));
        if (region !== undefined) return { bare, region, bareTo, regionTo };
      }
    }
  }
  return undefined;
}

function overlapRefused({ bare, region, bareTo, regionTo }: Overlap, named: NamedAudience | undefined): VariantPlan {
  const label = (tag: string | null) => (tag === null ? 'the base message' : `the ${tag} variant`);
  const lists = named ? `audience "${named.name}" lists ${bare} and ${region}, which go` : `--language ${bare} and ${region} go`;
  const where = named ? ` in the targeting of audience "${named.name}" in ${named.file}` : '';
  return {
    ok: false,
    message: `${lists} to different requests (${label(bareTo)}, ${label(regionTo)}), and a request to ${bare} reaches ${region} devices too: they would get both`,
    fix: `list the regions of ${bare} to reach, each as ${bare}-XX, instead of ${bare}${where}, or leave ${region} out so that its devices get ${label(bareTo)}`,
  };
}

const EVERY_OTHER = 'the service cannot address "every other language": a request reaches the languages its targeting names, or every device';
const EACH_VARIANT = 'each variant goes to its language, the base message to the others listed';
/** The variants' languages and English for the base message, as a JSON list: `["fr", "en"]`. */
const languageList = (tags: readonly string[]) => `[${[...new Set([...tags, 'en'])].map((t) => JSON.stringify(t)).join(', ')}]`;

/**
 * The requests a message with `variants` makes for `audience`:
 * - client IDs: each ID gets the variant of its language (exact tag, then bare language), else the base
 *   message; one request per variant used, each ID in exactly one;
 * - targeting with a `language` list: each listed language goes to its variant (same matching), the rest
 *   to the base message, each request's `targeting.language` narrowed to its languages;
 * - targeting without a language list, or every device: refused, since the base message would have to go to
 *   "every language no variant covers", which no targeting can say.
 */
export function planVariants(base: Json, variants: Variants, audience: VariantAudience, named?: NamedAudience): VariantPlan {
  const tags = Object.keys(variants);
  const messageOf = (tag: string | null) => (tag === null ? base : mergeVariant(base, variants[tag]!));
  if (tags.length === 0) {
    const only: VariantRequest = { language: null, message: base };
    if (audience.kind === 'client_ids') only.clientIds = audience.recipients.map((r) => r.id);
    if (audience.kind === 'targeting') only.targeting = audience.targeting;
    return { ok: true, requests: [only], unused: [] };
  }
  const conflicting = tags.find((tag) => Object.hasOwn(variants[tag]!, 'condition'));
  if (conflicting !== undefined) {
    return { ok: false, message: `variants.${conflicting} sets "condition": a variant changes what is said, not to whom`, fix: 'remove "condition" from the variant; the recipients come from the base message or the recipient flags' };
  }
  if (audience.kind === 'all') {
    // Said without a flag: every device may come from --all, from a file's condition or from --to.
    const fix = named
      ? `make audience "${named.name}" in ${named.file} a targeting that lists the languages, e.g. {"targeting": {"language": ${languageList(tags)}}}`
      : `name the languages to reach instead, e.g. --language ${[...tags, 'en'].join(',')}`;
    return { ok: false, message: `every device with variants: ${EVERY_OTHER}`, fix: `${fix}: ${EACH_VARIANT}` };
  }
  if (audience.kind === 'targeting') {
    const languages = audience.targeting.language;
    if (languages === undefined || languages.length === 0) {
      // --to takes no --language (another recipient flag): an audience's languages are set in the config file.
      if (named) {
        const fix = `add "language": ${languageList(tags)} to the targeting of audience "${named.name}" in ${named.file}, with every language to reach`;
        return { ok: false, message: `audience "${named.name}" targets no language, with variants: ${EVERY_OTHER}`, fix: `${fix}: ${EACH_VARIANT}` };
      }
      return { ok: false, message: `targeting without --language, with variants: ${EVERY_OTHER}`, fix: `add --language with every language to reach, e.g. --language ${[...tags, 'en'].join(',')}: ${EACH_VARIANT}` };
    }
    const groups = ordered(groupBy(languages, (l) => variantFor(l, tags) ?? null), tags);
    const overlap = bareAndRegionApart(groups);
    if (overlap) return overlapRefused(overlap, named);
    const requests = groups.map(([tag, langs]) => ({ language: tag, message: messageOf(tag), targeting: { ...audience.targeting, language: [...langs] } }));
    return { ok: true, requests, unused: tags.filter((tag) => !groups.some(([t]) => t === tag)) };
  }
  const groups = ordered(groupBy(audience.recipients, (r) => variantFor(r.language, tags) ?? null), tags);
  const requests = groups.map(([tag, recipients]) => ({ language: tag, message: messageOf(tag), clientIds: recipients.map((r) => r.id) }));
  return { ok: true, requests, unused: tags.filter((tag) => !groups.some(([t]) => t === tag)) };
}
