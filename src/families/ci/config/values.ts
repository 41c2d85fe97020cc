// The plain values a configuration is made of, and the error a configuration stops at.
import { Reference } from './yaml.js';

export type Hash = Record<string, unknown>;

/** Gitlab::Ci::Config::ConfigError: one message, the configuration goes no further. */
export class ConfigError extends Error {}

export const isHash = (v: unknown): v is Hash => !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Reference);

/** A map without a prototype, so that any key a file holds is an ordinary key. */
export const newHash = (): Hash => Object.create(null) as Hash;
