// The settings a config file may hold, as zod schemas. zod/mini, like the message schema: one light flavour of
// zod in the bundle keeps start-up fast. Built on first use: most runs read no config file, and building
// schemas (zod compiles the code of each kind on first use) is start-up time (docs/behaviour.md#performance).
import * as z from 'zod/mini';
import '../message/zod-jitless.js';

function buildSchemas() {
  /** A duration with a unit, as `--timeout` takes it: `500ms`, `10s`, `1.5m`. In a file a bare number is ambiguous. */
  const durationSchema = z.string().check(z.regex(/^\d+(\.\d+)?(ms|s|m|h|d|w)$/, { message: 'must be a duration with a unit, such as "10s" or "500ms"' }));

  const nonEmpty = z.string().check(z.minLength(1, { message: 'must not be empty' }));

  const stringList = z.array(nonEmpty).check(z.minLength(1, { message: 'must list at least one value' }));

  /** The service's targeting block (docs/behaviour.md#audiences): the fields of condition.targeting. */
  const audienceTargetingSchema = z.strictObject({
    country: z.optional(stringList),
    language: z.optional(stringList),
    brand: z.optional(stringList),
    model: z.optional(stringList),
    os_version: z.optional(stringList),
    app_version: z.optional(stringList),
  });

  /**
   * A named audience, as `--to <name>` uses it: client IDs inline, a client-ID file (relative to the config
   * file), a targeting block, or every device.
   */
  const audienceSchema = z.union([
    z.literal('all'),
    z.strictObject({ client_ids: stringList }),
    z.strictObject({ client_ids_file: nonEmpty }),
    z.strictObject({ targeting: audienceTargetingSchema }),
  ]);

  /** The settings a config file may hold, at its top level or under `profiles.<name>`. */
  const profileSettingsSchema = z.strictObject({
    appId: z.optional(nonEmpty),
    appSecret: z.optional(nonEmpty),
    region: z.optional(nonEmpty),
    baseUrl: z.optional(nonEmpty),
    timeout: z.optional(durationSchema),
    /** An http(s) proxy URL (src/settings/proxy.ts). */
    proxy: z.optional(nonEmpty),
    /** Named audiences for `--to`; a profile's names are added to (and win over) the top level's. */
    audiences: z.optional(z.record(z.string(), audienceSchema)),
  });

  /** The whole config file: the settings plus named profiles. */
  const configFileSchema = z.extend(profileSettingsSchema, {
    profiles: z.optional(z.record(z.string(), profileSettingsSchema)),
  });
  return { audienceTargetingSchema, audienceSchema, profileSettingsSchema, configFileSchema };
}

type Schemas = ReturnType<typeof buildSchemas>;
let built: Schemas | undefined;
/** The settings schemas, built on the first call. */
export const settingsSchemas = (): Schemas => (built ??= buildSchemas());

export type Audience = z.infer<Schemas['audienceSchema']>;
export type ProfileSettings = z.infer<Schemas['profileSettingsSchema']>;
export type ConfigFile = z.infer<Schemas['configFileSchema']>;

/** The keys a profile may hold, and the top level (which adds profiles). */
export const profileKeys = (): (keyof ProfileSettings)[] => Object.keys(settingsSchemas().profileSettingsSchema.shape) as (keyof ProfileSettings)[];
export const topLevelKeys = (): string[] => [...profileKeys(), 'profiles'];
