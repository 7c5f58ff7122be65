// `pushctl serve --fleet <N>`: N plausible devices, the same for the same seed. Their client IDs
// (`device-000001`, …) are computed from their position, so a million of them store no string.
import { seededRandom } from '../chaos.js';
import { Fleet, type Profile } from './fleet.js';

/** Countries with the languages their devices speak, weighted roughly by audience size. */
const MARKETS: readonly (readonly [country: string, languages: readonly string[], weight: number])[] = [
  ['IN', ['en-IN', 'hi-IN', 'ta-IN'], 20],
  ['US', ['en-US', 'es-US'], 14],
  ['BR', ['pt-BR'], 8],
  ['ID', ['id-ID'], 7],
  ['CN', ['zh-CN'], 7],
  ['GB', ['en-GB'], 5],
  ['DE', ['de-DE'], 5],
  ['FR', ['fr-FR'], 4],
  ['MX', ['es-MX'], 4],
  ['JP', ['ja-JP'], 4],
  ['RU', ['ru-RU'], 4],
  ['TR', ['tr-TR'], 3],
  ['NG', ['en-NG'], 3],
  ['VN', ['vi-VN'], 3],
  ['ES', ['es-ES', 'ca-ES'], 3],
  ['PH', ['en-PH', 'fil-PH'], 3],
  ['TW', ['zh-TW'], 2],
  ['CA', ['en-CA', 'fr-CA'], 1],
];
const PHONES: readonly (readonly [brand: string, models: readonly string[], weight: number])[] = [
  ['Samsung', ['SM-A546B', 'SM-S918B', 'SM-A145F', 'SM-G991B'], 30],
  ['Xiaomi', ['Redmi Note 12', '2201117TG', 'POCO X5'], 20],
  ['OPPO', ['CPH2591', 'CPH2477'], 10],
  ['vivo', ['V2207', 'V2250'], 10],
  ['Google', ['Pixel 7', 'Pixel 8 Pro'], 8],
  ['HUAWEI', ['ELS-NX9', 'NOH-NX9'], 7],
  ['OnePlus', ['CPH2449', 'LE2123'], 6],
  ['realme', ['RMX3630', 'RMX3771'], 6],
  ['Motorola', ['moto g54 5G', 'edge 40'], 3],
];
const OS_LEVELS: readonly (readonly [level: string, weight: number])[] = [['34', 25], ['33', 30], ['32', 10], ['31', 15], ['30', 12], ['29', 8]];
const APP_VERSIONS: readonly (readonly [version: string, weight: number])[] = [['3.2.0', 40], ['3.1.4', 30], ['3.1.0', 15], ['3.0.2', 10], ['2.9.9', 5]];

/** The index of a weighted draw among `weights`. */
function draw(random: () => number, weights: readonly number[], total: number): number {
  let left = random() * total;
  for (let i = 0; i < weights.length; i++) {
    left -= weights[i]!;
    if (left < 0) return i;
  }
  return weights.length - 1;
}

const weightsOf = (items: readonly (readonly [...unknown[], number])[]) => items.map((item) => item[item.length - 1] as number);
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** `count` plausible devices, the same for the same seed: `device-000001`, … */
export function syntheticFleet(count: number, seed = 1): Fleet {
  const random = seededRandom(seed);
  const width = Math.max(6, String(count).length);
  const idPattern = new RegExp(`^device-(\\d{${width}})$`);
  const ids = {
    at: (index: number) => `device-${String(index + 1).padStart(width, '0')}`,
    indexOf: (id: string) => {
      const n = Number(idPattern.exec(id)?.[1] ?? 0);
      return n >= 1 && n <= count ? n - 1 : undefined;
    },
  };
  const [markets, phones, levels, versions] = [MARKETS, PHONES, OS_LEVELS, APP_VERSIONS].map(weightsOf) as [number[], number[], number[], number[]];
  const totals = [sum(markets), sum(phones), sum(levels), sum(versions)] as const;
  // Each device is a handful of small numbers; a profile object is made only for a combination not seen
  // before, so a million devices cost a typed array and a few thousand profiles.
  const seen = new Map<number, number>();
  const profiles: Profile[] = [];
  const profileOf = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const m = draw(random, markets, totals[0]);
    const languages = MARKETS[m]![1];
    const l = Math.floor(random() * languages.length);
    const p = draw(random, phones, totals[1]);
    const models = PHONES[p]![1];
    const d = Math.floor(random() * models.length);
    const o = draw(random, levels, totals[2]);
    const a = draw(random, versions, totals[3]);
    const key = ((((m * 8 + l) * 16 + p) * 8 + d) * 8 + o) * 8 + a;
    let at = seen.get(key);
    if (at === undefined) {
      at = profiles.push({ country: MARKETS[m]![0], language: languages[l]!, brand: PHONES[p]![0], model: models[d]!, os_version: OS_LEVELS[o]![0], app_version: APP_VERSIONS[a]![0] }) - 1;
      seen.set(key, at);
    }
    profileOf[i] = at;
  }
  return new Fleet(ids, profiles, profileOf);
}
