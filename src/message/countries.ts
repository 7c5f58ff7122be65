/**
 * ISO 3166-1 alpha-2 country codes, used to validate `condition.targeting.country`.
 *
 * Origin: the officially assigned ISO 3166-1 alpha-2 codes published by the
 * ISO 3166 Maintenance Agency (https://www.iso.org/iso-3166-country-codes.html),
 * as mirrored by the `i18n-iso-countries` npm package (codes.json, with its
 * non-ISO "XK" Kosovo entry removed) and cross-checked against the
 * `lukes/ISO-3166-Countries-with-Regional-Codes` dataset (slim-2.csv) and
 * against Node's ICU/CLDR region names (`Intl.DisplayNames`).
 * All three agree on the same 249 codes. Checked 2026-11-22.
 *
 * Not included on purpose: user-assigned codes (AA, QM–QZ, XA–XZ incl. XK
 * "Kosovo", ZZ), exceptionally reserved codes (e.g. UK, EU, UN, AC, TA) and
 * deleted/transitionally reserved codes (e.g. AN, CS, YU, ZR, TP).
 *
 * The codes are kept as one sorted, space-separated string and split once at
 * load, which keeps the module small and cheap to import.
 */
const CODES =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI ' +
  'BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN ' +
  'CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK ' +
  'FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM ' +
  'HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN ' +
  'KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ' +
  'ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP ' +
  'NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF ' +
  'TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI ' +
  'VN VU WF WS YE YT ZA ZM ZW';

/** Every currently assigned ISO 3166-1 alpha-2 code (249 codes), upper case. */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(CODES.split(' '));

/**
 * Codes that are not assigned ISO 3166-1 alpha-2 codes but are commonly used
 * for a single, unambiguous country, mapped to the correct code. Used for
 * "did you mean" hints only; never applied silently.
 */
export const COUNTRY_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  UK: 'GB', // United Kingdom: reserved by ISO at the UK's request, but the ISO code is GB
  EL: 'GR', // Greece: the EU's own code (Eurostat / EU institutions), the ISO code is GR
  FX: 'FR', // "Metropolitan France": an exceptionally reserved code, the ISO code is FR
  TP: 'TL', // East Timor: TP was replaced by TL in 2002
  ZR: 'CD', // Zaire: ZR was replaced by CD (DR Congo) in 1997
  BU: 'MM', // Burma: BU was replaced by MM (Myanmar) in 1989
});
