// The emulator as the CLI (commands/serve/run.ts) and library users (lib.ts) see it.
export { createEmulator, type Emulator, type EmulatorOptions } from './server.js';
export { EmulatorConfigError, loadAppsFile, parseAppSpec, type EmulatorApp } from './apps.js';
export { parseChaosSpec } from './chaos.js';
export { fleetOf, type Fleet } from './devices/fleet.js';
export { syntheticFleet } from './devices/synthetic.js';
export { parseDevices, DevicesFileError, DEVICE_FIELDS } from './devices/load-devices.js';
export { checkDevices } from './devices/check-devices.js';
export type { Device } from './devices/match.js';
export { checkTlsPair } from './tls-pair.js';
export type { StoredMessage } from './store.js';
