// A deploy key (app/models/deploy_key.rb): an SSH key of the `keys` table that opens projects'
// repositories rather than a user's, joined to each project it opens by a DeployKeysProject.
export interface DeployKey {
  id: number;
  /** Who added it. */
  userId: number | null;
  title: string;
  key: string;
  /** Colon-separated MD5 of the key's body (Key#fingerprint). */
  fingerprint: string;
  /** `SHA256:` and the unpadded base64 of the body's SHA-256 (Key#fingerprint_sha256), without the prefix. */
  fingerprintSha256: string;
  /** A public key any maintainer may enable (the administrators' instance keys). */
  public: boolean;
  createdAt: number;
  updatedAt: number;
  expiresAt: number | null;
}

/** DeployKeysProject: a deploy key enabled in a project, read-only or with write access. */
export interface DeployKeysProject {
  id: number;
  deployKeyId: number;
  projectId: number;
  canPush: boolean;
  createdAt: number;
  updatedAt: number;
}
