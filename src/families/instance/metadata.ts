// Which GitLab the emulator imitates (lib/api/metadata.rb): the release its behaviour follows,
// and the edition the world's tier implies (Free is the Community Edition).
import type { Instance } from '../../store/state.js';

/** The GitLab release whose REST API the emulator follows. */
export const GITLAB_VERSION = '18.2.0';
/** Stands where GitLab names the commit it was built from. */
export const GITLAB_REVISION = 'emulator';

export const isEnterprise = (instance: Instance) => instance.tier !== 'free';

/** The release the instance reports (a fixture's `instance.version`, else the imitated one), `-ee` above the free tier. */
export function gitlabVersion(instance: Instance): string {
  const release = (instance.version ?? GITLAB_VERSION).replace(/-ee$/, '');
  return isEnterprise(instance) ? `${release}-ee` : release;
}

/** The metadata GraphQL query's answer: lib/api/metadata.rb runs the one query for /metadata and for the deprecated /version alike, so their bodies are the same. */
export function metadata(instance: Instance) {
  const ee = isEnterprise(instance);
  return {
    version: gitlabVersion(instance),
    revision: GITLAB_REVISION,
    kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
    enterprise: ee,
  };
}
