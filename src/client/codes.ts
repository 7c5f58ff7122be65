/**
 * What the client tells a user about a service status: the shared meaning (message/service-codes.ts) and a
 * next step, which only the client can give (it knows the flags).
 */
import { APP_WIDE_STATUSES, SERVICE_MEANINGS, ServiceStatus, SETTING_STATUSES } from '../message/service-codes.js';

/** What a status code means and what the user can do about it. */
export interface StatusInfo {
  code: number;
  /** Short meaning, as the vendor documents it ("App Secret illegal"). */
  meaning: string;
  /** One line telling the user what to do next, in the words of every hint: lower case, no closing full stop. */
  hint: string;
  /** True for codes the service documents; false for anything else it might answer. */
  known: boolean;
}

export const STATUS_OK = ServiceStatus.ok;
export const STATUS_RATE_LIMITED = ServiceStatus.tooFrequent;
export { APP_WIDE_STATUSES, SETTING_STATUSES };

const HINTS: Readonly<Record<ServiceStatus, string>> = {
  200: 'the service accepted the message',
  21001: 'set the app ID with --app-id, PUSHCTL_APP_ID or appId in the config file',
  21002: 'check the app ID against the vendor console, and that the app is on the service you send to (--region global|india, or --base-url)',
  21003: 'set the secret with --app-secret-file, --app-secret-stdin or PUSHCTL_APP_SECRET',
  21004: 'the secret does not match this app ID: copy it again from the vendor console, and send it raw (no "Bearer " or other prefix)',
  21005: 'the service refused the body; run `pushctl validate` and compare with the interface document',
  21006: 'lower --batch-size (at most 1000 client IDs per request); `pushctl resend <run> --batch-size <n>` sends the refused batches',
  21007: 'enable the push SDK for this app in the vendor console',
  22001: "the rate limit was hit; lower --rate (its default, 50 requests per second, is the service's published limit, which other senders may be using too)",
};

/** Every documented code, keyed by number. */
export const STATUS_CODES: ReadonlyMap<number, StatusInfo> = new Map(
  (Object.keys(SERVICE_MEANINGS).map(Number) as ServiceStatus[]).map((code) => [code, { code, meaning: SERVICE_MEANINGS[code], hint: HINTS[code], known: true }]),
);

/** Meaning and hint for a status code; codes the document does not list get a generic, honest answer. */
export function describeStatus(code: number): StatusInfo {
  return (
    STATUS_CODES.get(code) ?? {
      code,
      meaning: 'unknown status',
      hint: 'the service answered a status its document does not list; rerun with --verbose to see the answer',
      known: false,
    }
  );
}
