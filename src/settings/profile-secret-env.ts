// The environment variable that holds one profile's secret (docs/behaviour.md#targets), read for that
// profile alone or as one target of several: its name is the profile's, so it is never another app's secret.

/** `PUSHCTL_APP_SECRET_INDIA` for profile `india` (upper case, any other character as `_`). */
export const profileSecretEnv = (profile: string): string => `PUSHCTL_APP_SECRET_${profile.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
