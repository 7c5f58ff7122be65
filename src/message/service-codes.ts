// The Push Message Service's status codes (docs/behaviour.md#service-codes): one table for the client, which explains an
// answer, and the emulator, which gives it. The body's `status` carries them whatever the HTTP status is.

/** The codes by name, for code that gives or tests one. */
export const ServiceStatus = {
  ok: 200,
  appIdMissing: 21001,
  appIdIllegal: 21002,
  appSecretMissing: 21003,
  appSecretIllegal: 21004,
  messageIllegal: 21005,
  clientIdTooMuch: 21006,
  appDisabled: 21007,
  tooFrequent: 22001,
} as const;
export type ServiceStatus = (typeof ServiceStatus)[keyof typeof ServiceStatus];
export type ServiceErrorStatus = Exclude<ServiceStatus, 200>;

/**
 * What each code means, in the words pushctl prints (the vendor's, with its capitals only on names:
 * "App ID", "App Secret"), so a report, the emulator's answer and the inbox page read the same.
 */
export const SERVICE_MEANINGS: Readonly<Record<ServiceStatus, string>> = {
  200: 'OK',
  21001: 'App ID missing',
  21002: 'App ID illegal',
  21003: 'App Secret missing',
  21004: 'App Secret illegal',
  21005: 'message illegal',
  21006: 'client ID too much',
  21007: 'app push SDK disabled',
  22001: 'called too frequently',
};

/** The documented meaning of a status, or undefined for one the document does not list. */
export function serviceMeaning(status: number): string | undefined {
  return Object.hasOwn(SERVICE_MEANINGS, status) ? SERVICE_MEANINGS[status as ServiceStatus] : undefined;
}

/**
 * Statuses that refuse the app itself (its ID, its secret, its push SDK), not the batch: every other batch of
 * a run would be refused the same way.
 */
export const APP_WIDE_STATUSES: ReadonlySet<number> = new Set([21001, 21002, 21003, 21004, 21007]);

/**
 * Statuses that refuse a request for what a setting changes — the app, its secret, its push SDK switch, the
 * number of client IDs a request carries — never for its message: nothing was delivered, and the same
 * recipients go through once the setting is fixed (docs/behaviour.md#retries).
 */
export const SETTING_STATUSES: ReadonlySet<number> = new Set([...APP_WIDE_STATUSES, 21006]);
