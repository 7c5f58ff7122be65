/**
 * What one HTTP attempt came to. The four kinds follow docs/behaviour.md#retries: the question that matters is whether
 * the service could have processed the request, because the API has no idempotency key and a careless retry
 * can deliver a message twice.
 */

/** The raw answer, kept so `--verbose` can print it. The body is capped (see PushClient). */
export interface ResponseView {
  httpStatus: number;
  headers: Record<string, string>;
  body: string;
  /** True when the body was cut at the size cap or the connection ended before the body did. */
  incomplete: boolean;
}

/** The request exactly as sent, with the secret replaced by `***`. */
export interface RequestView {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The service answered status 200 with a message_id. */
export interface Accepted {
  kind: 'accepted';
  messageId: string;
  httpStatus: number;
  response?: ResponseView;
}

/** The service answered a status other than 200 and 22001: it refused the request; retrying cannot help. */
export interface Rejected {
  kind: 'rejected';
  code: number;
  /** The service's own text beside the code (may be empty). */
  message: string;
  httpStatus: number;
  response?: ResponseView;
}

/** Certainly not processed (refused connection, DNS failure, 408/429/503, status 22001...): safe to retry. */
export interface Retryable {
  kind: 'retryable';
  reason: string;
  /** Body status and the service's text when there was one (22001). */
  code?: number;
  message?: string;
  httpStatus?: number;
  /** From a `Retry-After` header. */
  retryAfterMs?: number;
  /** Not processed, but repeating cannot help (an untrusted TLS certificate, say): the policy gives up at once. */
  permanent?: boolean;
  /** The next step, where it is the user's to take (trust a private CA, say): shown as the hint. */
  fix?: string;
  /** Network error code (ECONNREFUSED, ENOTFOUND...). */
  errorCode?: string;
  response?: ResponseView;
}

/** May or may not have been processed (timeout or reset after sending, 500/502/504, an unreadable answer). */
export interface InDoubt {
  kind: 'in_doubt';
  reason: string;
  httpStatus?: number;
  /** Set when the answer was a redirect, which is never followed so the secret never goes elsewhere. */
  redirectTo?: string;
  errorCode?: string;
  response?: ResponseView;
}

export type AttemptOutcome = Accepted | Rejected | Retryable | InDoubt;
