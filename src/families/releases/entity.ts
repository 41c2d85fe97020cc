// Releases as GitLab renders them (lib/api/entities/basic_release_details.rb, release.rb,
// releases/{link,source,evidence}.rb, app/presenters/release_presenter.rb,
// app/presenters/releases/{link,evidence}_presenter.rb). A viewer who may not read the code
// sees no commit, paths, sources or evidences, and a count of links only.
import { orderByDatesAndTitle } from '../milestones/index.js';
import type { Release, ReleaseEvidence, ReleaseLink } from './records.js';
import { ARCHIVE_FORMATS, isUpcoming, releaseMilestones, sortedLinks } from './rules.js';
import type { Project, User } from '../../store/state.js';
import type { State } from '../world.js';
import { toQuery } from '../../http/pagination.js';
import { tget } from '../../store/table.js';
import { commitEntity, type CommitRef } from '../commits/index.js';
import { milestoneEntity } from '../milestones/index.js';
import { milestoneIssueStats } from '../issues/index.js';
import { projectPaths } from '../projects/index.js';
import { iso } from '../../render/time.js';
import { urlPath, urlSegment } from '../../render/url.js';
import { userBasic, type UrlBase } from '../users/index.js';

let markdown: Promise<(text: string) => string> | undefined;

/**
 * Release descriptions as HTML (markdown-it stands in for GitLab's Banzai pipeline), loaded the
 * first time a request asks for `include_html_description`, so importing the emulator does not.
 */
export function markdownRenderer(): Promise<(text: string) => string> {
  markdown ??= import('markdown-it').then(({ default: MarkdownIt }) => {
    const md = new MarkdownIt({ html: false, linkify: true });
    return (text: string) => md.render(text).replace(/\n$/, '');
  });
  return markdown;
}

export interface ReleaseView extends UrlBase {
  state: State;
  viewer: User | null;
  now: number;
  project: Project;
  /** The viewer may read the repository (`read_code`). */
  readCode: boolean;
  /** The viewer may read the project's milestones (`read_milestone`). */
  readMilestones: boolean;
  /** Whether the viewer may update a release (`edit_url`). */
  canUpdate: (tagName: string) => boolean;
  /** Renders `description_html`, when the request asked for it. */
  html?: (markdown: string) => string;
}

function projectWeb(v: ReleaseView): { web: string; fullPath: string } {
  const { fullPath } = projectPaths(v.state, v.project);
  return { web: `${v.webBase}/${fullPath}`, fullPath };
}

/** Entities::Releases::Link; `direct_asset_url` goes through the release's downloads route when the link has a path. */
export function releaseLinkEntity(v: Pick<ReleaseView, 'state' | 'project' | 'webBase'>, r: Release, l: ReleaseLink) {
  const { fullPath } = projectPaths(v.state, v.project);
  const direct = l.filepath !== null ? `${v.webBase}/${fullPath}/-/releases/${urlSegment(r.tagName)}/downloads/${urlPath(l.filepath.replace(/^\//, ''))}` : l.url;
  return { id: l.id, name: l.name, url: l.url, direct_asset_url: direct, link_type: l.linkType };
}

/** Entities::Releases::Evidence through Releases::EvidencePresenter. */
function evidenceEntity(web: string, r: Release, e: ReleaseEvidence) {
  return { sha: e.sha, filepath: `${web}/-/releases/${urlSegment(r.tagName)}/evidences/${e.id}.json`, collected_at: iso(e.collectedAt) };
}

/** Entities::BasicReleaseDetails (group lists with `simple=true`). */
export function basicReleaseDetails(r: Release, now: number) {
  return {
    name: r.name,
    tag_name: r.tagName,
    description: r.description === '' ? null : r.description,
    created_at: iso(r.createdAt),
    released_at: iso(r.releasedAt),
    upcoming_release: isUpcoming(r, now),
  };
}

export interface ReleaseExtras {
  /** The commit of the release, read from the repository; null when it is gone. */
  commit: CommitRef | null;
  /** The create response also names the evidence collected with it (the spec's `evidence_sha`). */
  evidenceSha?: string | null;
}

/** Entities::Release, field for field in GitLab's order. */
export function releaseEntity(v: ReleaseView, r: Release, x: ReleaseExtras) {
  const { web, fullPath } = projectWeb(v);
  const author = r.authorId !== null ? tget(v.state.users, r.authorId) : undefined;
  const milestones = v.readMilestones ? orderByDatesAndTitle(releaseMilestones(v.state, v.project, r)) : [];
  const tagSegment = urlSegment(r.tagName);
  const issues = (kind: 'issues' | 'merge_requests', state: string) => `${web}/-/${kind}?${toQuery({ release_tag: r.tagName, scope: 'all', state })}`;
  const links = sortedLinks(r);
  const latestEvidence = r.evidences[r.evidences.length - 1];
  return {
    ...basicReleaseDetails(r, v.now),
    ...(v.html ? { description_html: r.description === '' ? null : v.html(r.description) } : {}),
    ...(author ? { author: userBasic(author, v) } : {}),
    ...(v.readCode ? { commit: x.commit ? commitEntity(web, x.commit) : null } : {}),
    ...(milestones.length ? { milestones: milestones.map((m) => ({ ...milestoneEntity(v.state, m, v, v.now), issue_stats: milestoneIssueStats(v.state, m) })) } : {}),
    ...(v.readCode && x.commit ? { commit_path: `/${fullPath}/-/commit/${x.commit.sha}` } : {}),
    ...(v.readCode ? { tag_path: `/${fullPath}/-/tags/${tagSegment}` } : {}),
    ...(v.readCode && x.evidenceSha ? { evidence_sha: x.evidenceSha } : {}),
    assets: {
      count: links.length + (v.readCode ? ARCHIVE_FORMATS.length : 0),
      ...(v.readCode
        ? {
            sources: ARCHIVE_FORMATS.map((format) => ({
              format,
              url: `${web}/-/archive/${urlPath(r.tagName)}/${urlPath(`${v.project.path}-${r.tagName.replace(/\//g, '-')}`)}.${format}`,
            })),
          }
        : {}),
      links: links.map((l) => releaseLinkEntity(v, r, l)),
      ...(v.readCode && latestEvidence ? { evidence_file_path: evidenceEntity(web, r, latestEvidence).filepath } : {}),
    },
    ...(v.readCode ? { evidences: r.evidences.map((e) => evidenceEntity(web, r, e)) } : {}),
    _links: {
      closed_issues_url: issues('issues', 'closed'),
      closed_merge_requests_url: issues('merge_requests', 'closed'),
      ...(v.canUpdate(r.tagName) ? { edit_url: `${web}/-/releases/${tagSegment}/edit` } : {}),
      merged_merge_requests_url: issues('merge_requests', 'merged'),
      opened_issues_url: issues('issues', 'opened'),
      opened_merge_requests_url: issues('merge_requests', 'opened'),
      self: `${web}/-/releases/${tagSegment}`,
    },
  };
}
