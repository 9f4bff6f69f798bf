import type { Config } from '../../config/config';

/** What the app was started with for the front door pages. */
export interface FrontDoorOptions {
  /** The demo API key of the embedded database, preset in the tools outside production. */
  demoApiKey?: string;
}

/**
 * The API key the pages and IDEs may preset: the demo key, never in production (where no page
 * hands out a key and no IDE is served).
 */
export function presetApiKey(config: Config, options: FrontDoorOptions): string | undefined {
  return config.nodeEnv === 'production' ? undefined : options.demoApiKey;
}

/** Whether the local GraphQL IDE is served: not in production, where introspection is off. */
export function ideServed(config: Config): boolean {
  return config.nodeEnv !== 'production';
}
