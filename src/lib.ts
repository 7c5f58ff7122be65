/**
 * pushctl as a library: the validator, the client and the emulator the CLI is built from.
 * @packageDocumentation
 */
export { validateMessage } from './message/validate.js';
export { assembleMessage, type MessageFlags, type AssembleInput } from './message/assemble.js';
export { createEmulator, type Emulator, type EmulatorOptions, type StoredMessage, type EmulatorApp } from './emulator/index.js';
export type { PushMessage, Condition, Targeting, Notification, MessageIssue, ValidationResult, ValidateOptions } from './message/types.js';
export { messageJsonSchema, type JsonSchema } from './message/json-schema.js';
export { PushClient, type PushClientOptions, type PushSender } from './client/push-client.js';
export { sendBatches, recipientCount, type SendBatchesOptions, type BatchResult, type BatchStatus, type BatchProgress, type AttemptEvent } from './client/send-batches.js';
export { RateLimiter, type RateLimiterOptions } from './client/rate-limiter.js';
export { ClientIdCollector, ClientIdStore } from './client/client-id-store.js';
export type { ClientIdSource } from './message/recipients.js';
export { buildReport, summarizeBatches, type DeliveryReport, type DeliverySummary } from './client/report.js';
export { describeStatus, STATUS_CODES, type StatusInfo } from './client/codes.js';
export type { AttemptOutcome, Accepted, Rejected, Retryable, InDoubt, ResponseView, RequestView } from './client/outcome.js';
// The client reports unusable settings (a bad base URL or secret) as a CliError carrying an exit code.
export { CliError, ExitCode } from './errors.js';
export { VERSION } from './version.js';
