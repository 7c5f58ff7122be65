// The delivery engine's public surface, for the commands and for library users.
export * from './batches.js';
export * from './classify.js';
export * from './client-id-store.js';
export * from './codes.js';
export * from './outcome.js';
export * from './push-client.js';
export * from './rate-limiter.js';
export * from './read-client-ids.js';
export * from './report.js';
export * from './retry.js';
export * from './send-batches.js';
export * from './sleep.js';
