import { z } from 'zod';

/** A duration with a unit, as `--timeout` takes it: `500ms`, `10s`, `1.5m`. In a file a bare number is ambiguous. */
const durationSchema = z
  .string()
  .regex(/^\d+(\.\d+)?(ms|s|m|h|d)$/, { message: 'must be a duration with a unit, such as "10s" or "500ms"' });

const nonEmpty = z.string().min(1, { message: 'must not be empty' });

/** The settings a config file may hold, at its top level or under `profiles.<name>`. */
export const profileSettingsSchema = z.strictObject({
  appId: nonEmpty.optional(),
  appSecret: nonEmpty.optional(),
  region: nonEmpty.optional(),
  baseUrl: nonEmpty.optional(),
  timeout: durationSchema.optional(),
});
export type ProfileSettings = z.infer<typeof profileSettingsSchema>;

/** The whole config file: the settings plus named profiles. */
export const configFileSchema = profileSettingsSchema.extend({
  profiles: z.record(z.string(), profileSettingsSchema).optional(),
});
export type ConfigFile = z.infer<typeof configFileSchema>;

export const profileKeys = Object.keys(profileSettingsSchema.shape) as (keyof ProfileSettings)[];
export const topLevelKeys = [...profileKeys, 'profiles'] as const;
