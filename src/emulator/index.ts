export { createEmulator, type Emulator, type EmulatorOptions } from './server.js';
export { handleRequest, type EmulatorRequest, type HandlerState } from './handler.js';
export { ServiceStatus, type EmulatorAnswer } from './answers.js';
export {
  DEMO_APP,
  EmulatorConfigError,
  loadAppsFile,
  parseAppSpec,
  parseAppsJson,
  type EmulatorApp,
} from './apps.js';
export { MessageStore, type MessageStoreOptions, type StoredMessage, type StoreStats } from './store.js';
export { RateWindow } from './rate-window.js';
export { Chaos, parseChaosSpec, formatChaosSpec, seededRandom, CHAOS_FAULTS, type ChaosFault, type ChaosSpec } from './chaos.js';
export { RequestLog, type RequestLogEntry, type RequestPage, type RequestQuery } from './request-log.js';
export { Fleet, type InboxItem } from './devices/fleet.js';
export { parseDevices, syntheticFleet, DevicesFileError, DEVICE_FIELDS } from './devices/load-devices.js';
export { reaches, languageMatches, matchesTargeting, type Device } from './devices/match.js';
