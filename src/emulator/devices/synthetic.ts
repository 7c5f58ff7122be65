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

function weighted<T>(random: () => number, items: readonly (readonly [...unknown[], number])[]): T {
  const total = items.reduce((sum, item) => sum + (item[item.length - 1] as number), 0);
  let draw = random() * total;
  for (const item of items) {
    draw -= item[item.length - 1] as number;
    if (draw < 0) return item as unknown as T;
  }
  return items[items.length - 1] as unknown as T;
}

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
  // Devices are drawn in order, so device i is the same whatever else is asked of the fleet.
  const profileAt = (): Profile => {
    const [country, languages] = weighted<(typeof MARKETS)[number]>(random, MARKETS);
    const [brand, models] = weighted<(typeof PHONES)[number]>(random, PHONES);
    return {
      country,
      language: languages[Math.floor(random() * languages.length)]!,
      brand,
      model: models[Math.floor(random() * models.length)]!,
      os_version: weighted<(typeof OS_LEVELS)[number]>(random, OS_LEVELS)[0],
      app_version: weighted<(typeof APP_VERSIONS)[number]>(random, APP_VERSIONS)[0],
    };
  };
  return new Fleet(count, ids, profileAt);
}
