/**
 * pushctl as a library: the validator, the client and the emulator the CLI is built from.
 * @packageDocumentation
 */
export { validateMessage } from './message/validate.js';
export { assembleMessage, type MessageFlags, type AssembleInput } from './message/assemble.js';
export { createEmulator, type Emulator, type EmulatorOptions, type StoredMessage, type EmulatorApp } from './emulator/index.js';
export type { PushMessage, Condition, Targeting, Notification, MessageIssue, ValidationResult, ValidateOptions } from './message/types.js';
export { VERSION } from './version.js';
