// Releases and their asset links and evidence (app/models/release.rb, releases/link.rb, releases/evidence.rb).

export type ReleaseLinkType = 'other' | 'runbook' | 'image' | 'package';

export interface ReleaseLink {
  id: number;
  name: string;
  url: string;
  /** The direct asset path (`/bin/app`), or null. */
  filepath: string | null;
  linkType: ReleaseLinkType;
  createdAt: number;
}

export interface ReleaseEvidence {
  id: number;
  sha: string;
  collectedAt: number;
  /** The evidence summary as collected (Evidences::EvidenceEntity), kept as data. */
  summary: unknown;
}

/** A release, keyed in its project by tag name. The tag itself may be deleted later. */
export interface Release {
  id: number;
  tagName: string;
  name: string;
  description: string;
  createdAt: number;
  updatedAt: number;
  releasedAt: number;
  authorId: number | null;
  /** The commit the tag pointed at when the release was made. */
  sha: string | null;
  /** Project or group milestone ids. */
  milestoneIds: number[];
  links: ReleaseLink[];
  evidences: ReleaseEvidence[];
}
