/**
 * The service's status codes (SPEC section 1). The body's `status` field carries them whatever the HTTP
 * status is, so this table is what turns a bare number into something a user can act on.
 */

/** What a status code means and what the user can do about it. */
export interface StatusInfo {
  code: number;
  /** Short meaning, as the vendor documents it ("App Secret illegal"). */
  meaning: string;
  /** One line telling the user what to do next. */
  hint: string;
  /** True for codes the service documents; false for anything else it might answer. */
  known: boolean;
}

export const STATUS_OK = 200;
export const STATUS_RATE_LIMITED = 22001;

const TABLE: ReadonlyArray<Omit<StatusInfo, 'known'>> = [
  { code: 200, meaning: 'OK', hint: 'The service accepted the message.' },
  { code: 21001, meaning: 'App ID missing', hint: 'Set the app ID with --app-id, PUSHCTL_APP_ID or appId in the config file.' },
  { code: 21002, meaning: 'App ID illegal', hint: 'Check the app ID against the vendor console, and the region (--region global|india).' },
  { code: 21003, meaning: 'App Secret missing', hint: 'Set the secret with --app-secret-file, --app-secret-stdin or PUSHCTL_APP_SECRET.' },
  { code: 21004, meaning: 'App Secret illegal', hint: 'The secret does not match this app ID: copy it again from the vendor console, and send it raw (no "Bearer " or other prefix).' },
  { code: 21005, meaning: 'message illegal', hint: 'The service refused the body; run `pushctl validate` and compare with the interface document.' },
  { code: 21006, meaning: 'client ID too much', hint: 'Lower --batch-size (at most 1000 client IDs per request).' },
  { code: 21007, meaning: 'app push SDK disabled', hint: 'Enable the push SDK for this app in the vendor console.' },
  { code: 22001, meaning: 'called too frequently', hint: 'The rate limit was hit; lower --rate (the service allows 50 requests per second per app).' },
];

/** Every documented code, keyed by number. */
export const STATUS_CODES: ReadonlyMap<number, StatusInfo> = new Map(
  TABLE.map((entry) => [entry.code, { ...entry, known: true }]),
);

/** Meaning and hint for a status code; codes the document does not list get a generic, honest answer. */
export function describeStatus(code: number): StatusInfo {
  return (
    STATUS_CODES.get(code) ?? {
      code,
      meaning: 'unknown status',
      hint: 'The service answered a status its document does not list; rerun with --verbose to see the answer.',
      known: false,
    }
  );
}

/**
 * Statuses that refuse the app itself (its ID, its secret, its push SDK), not the batch: every other batch of
 * the run would be refused the same way, so a run stops starting new ones after the first.
 */
export const APP_WIDE_STATUSES: ReadonlySet<number> = new Set([21001, 21002, 21003, 21004, 21007]);
