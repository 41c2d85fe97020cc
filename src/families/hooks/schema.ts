// The webhooks family's part of the fixture format: the instance's outbound request settings.
import { bool, object, opt, type Infer } from '../../core/schema.js';

export const hooksTopSchema = object({
  webhooks: opt(
    object({
      /** Hooks of projects and groups may reach local addresses (on in the emulator's world, whose receivers are local). */
      allow_local_requests_from_web_hooks_and_services: opt(bool),
      /** System hooks may reach local addresses (on in the emulator's world). */
      allow_local_requests_from_system_hooks: opt(bool),
    }),
  ),
});

export type FixtureHooksPart = Infer<typeof hooksTopSchema>;
