/**
 * pushctl as a library: the validator, the client and the emulator the CLI is built from.
 * @packageDocumentation
 */
export { validateMessage } from './message/validate.js';
export { assembleMessage, type MessageFlags, type AssembleInput } from './message/assemble.js';
export { createEmulator, type Emulator, type EmulatorOptions, type StoredMessage, type EmulatorApp } from './emulator/index.js';
// EmulatorOptions.fleet is made by these: devices checked as `serve --devices` checks them, or a synthetic
// fleet. (The devices file's CSV reader stays out: it would add a third to the library's size.)
export { fleetOf, checkDevices, syntheticFleet, DevicesFileError, type Fleet, type Device } from './emulator/index.js';
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
// The client reports unusable settings (a bad base URL or secret), and the emulator its (a port in use, an app
// without a secret, a bad devices file), as a CliError carrying an exit code and a hint.
export { CliError, ExitCode } from './errors.js';
export { VERSION } from './version.js';
