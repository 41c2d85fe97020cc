// Push rules applied to a push (EE's PushRuleCheck): for each branch, its name
// (PushRules::BranchCheck) and each commit new to the repository (PushRules::CommitCheck: the
// message, the author's and committer's emails, that they are users), the files the commits add
// (DiffCheck: names, secrets) and the size of their blobs (FileSizeCheck); for each tag, its
// deletion (PushRules::TagCheck). GitLab's messages.
import { parseCommit, parseTree, type CommitData, type Tree } from '../../git/format.js';
import type { Command, PushObjects } from '../../git/transfer.js';
import { PushObjects as PushObjectsOf, ZERO } from '../../git/transfer.js';
import { tvalues } from '../../store/table.js';
import type { ProjectPush } from '../define.js';
import type { State } from '../world.js';

/** What a rule reads of the push-rules slice: the project's rule, when the tier has push rules. */
export interface RuleView {
  regexes: Record<string, string | null>;
  flags: Record<string, boolean>;
  maxFileSize: number;
}

/** Files GitLab's `prevent_secrets` refuses by name (ee/lib/gitlab/checks/files_denylist.yml, the common ones). */
const SECRET_FILES: readonly RegExp[] = [
  /(ssh|config)\/(personal|server)_(key|secret)/,
  /(^|\/)id_(rsa|dsa|ecdsa|ed25519)$/,
  /\.(pem|key|p12|pfx|asc)$/,
  /(^|\/)\.?(bash_|zsh_|sh_|mysql_|psql_|irb_)?history$/,
  /(^|\/)\.git-credentials$/,
  /(^|\/)\.pgpass$/,
  /(^|\/)\.htpasswd$/,
  /(^|\/)\.(ftpconfig|remote-sync\.json|s3cfg|netrc|npmrc|dockercfg)$/,
  /(^|\/)credentials\.xml$/,
  /(^|\/)secret_token\.rb$/,
  /(^|\/)(terraform\.tfstate|\.tfvars)$/,
];

/** PushRule#data_match?: a blank pattern matches everything; GitLab compiles them multiline. */
function matches(value: string, pattern: string | null | undefined, multiline = false): boolean {
  if (!pattern) return true;
  try {
    return new RegExp(pattern, multiline ? 'm' : '').test(value);
  } catch {
    return true; // the rule's validation refuses a pattern that does not compile
  }
}

async function readCommit(objects: PushObjects, oid: string): Promise<CommitData | null> {
  const o = objects.pushed.get(oid);
  try {
    if (o) return o.type === 'commit' ? parseCommit(o.content) : null;
    return await objects.repo.readCommit(oid);
  } catch {
    return null;
  }
}

async function readTree(objects: PushObjects, oid: string | null): Promise<Tree> {
  if (oid === null) return new Map();
  const o = objects.pushed.get(oid);
  try {
    if (o) return o.type === 'tree' ? parseTree(o.content) : new Map();
    return await objects.repo.readTree(oid);
  } catch {
    return new Map();
  }
}

/** The commits a push brings that the repository lacks, reachable from `tip` (Repository#new_commits), newest first. */
async function newCommits(objects: PushObjects, tip: string): Promise<[string, CommitData][]> {
  const out: [string, CommitData][] = [];
  const seen = new Set<string>();
  const stack = [tip];
  while (stack.length) {
    const oid = stack.pop()!;
    if (seen.has(oid) || !objects.pushed.has(oid)) continue;
    seen.add(oid);
    const c = await readCommit(objects, oid);
    if (!c) continue;
    out.push([oid, c]);
    stack.push(...c.parents);
  }
  return out;
}

/** The files a commit adds to its first parent's tree, and the blobs it writes (new or changed), with their paths. */
async function addedFiles(objects: PushObjects, tree: string, parentTree: string | null, prefix: string, added: string[], blobs: [string, string][]): Promise<void> {
  const now = await readTree(objects, tree);
  const before = await readTree(objects, parentTree);
  for (const [name, entry] of now) {
    const old = before.get(name);
    if (old && old.oid === entry.oid) continue;
    const path = prefix + name;
    if (entry.type === 'tree') await addedFiles(objects, entry.oid, old?.type === 'tree' ? old.oid : null, `${path}/`, added, blobs);
    else if (entry.type === 'blob') {
      if (!old || old.type !== 'blob') added.push(path);
      blobs.push([path, entry.oid]);
    }
  }
}

/** User.find_by_any_email: whether a user has the address. */
function isUserEmail(state: State, email: string): boolean {
  const wanted = email.toLowerCase();
  for (const u of tvalues(state.users)) if (u.email.toLowerCase() === wanted) return true;
  return false;
}

/** CommitCheck#check_commit, for the rules the emulator keeps; `web` for a commit made through the API (updated_from_web?). */
function checkCommit(state: State, rule: RuleView, c: CommitData, web = false): string | null {
  const { regexes, flags } = rule;
  if (!matches(c.message, regexes.commit_message_regex, true)) return `Commit message does not follow the pattern '${regexes.commit_message_regex}'`;
  if (regexes.commit_message_negative_regex && matches(c.message, regexes.commit_message_negative_regex, true))
    return `Commit message contains the forbidden pattern '${regexes.commit_message_negative_regex}'`;
  if (!web && !matches(c.committer.email, regexes.author_email_regex)) return `Committer's email '${c.committer.email}' does not follow the pattern '${regexes.author_email_regex}'`;
  if (!matches(c.author.email, regexes.author_email_regex)) return `Author's email '${c.author.email}' does not follow the pattern '${regexes.author_email_regex}'`;
  if (flags.reject_non_dco_commits && !/^Signed-off-by: .+ <.+>$/m.test(c.message)) return 'Commit message must contain a DCO signoff';
  if (flags.member_check && !web) {
    if (!isUserEmail(state, c.author.email)) return `Author '${c.author.email}' is not a member of team`;
    if (c.author.email.toLowerCase() !== c.committer.email.toLowerCase() && !isUserEmail(state, c.committer.email)) return `Committer '${c.committer.email}' is not a member of team`;
  }
  return null;
}

/** The file name rule and the secrets list (PushRule#filename_denylisted?): the pattern a path matches, or null. */
function deniedBy(rule: RuleView, path: string): string | null {
  const own = rule.regexes.file_name_regex;
  if (own && matches(path, own)) return own;
  if (rule.flags.prevent_secrets) for (const r of SECRET_FILES) if (r.test(path)) return r.source;
  return null;
}

/** Every push rule check of one command of a push, against the project's rule: GitLab's message, or null. */
export async function checkPushRule(c: ProjectPush, rule: RuleView, cmd: Command, objects: PushObjects): Promise<string | null> {
  const deletion = cmd.new === ZERO;
  if (cmd.ref.startsWith('refs/tags/')) {
    // TagCheck: no deleting tags with git push.
    if (deletion && rule.flags.deny_delete_tag) return 'You cannot delete a tag';
    return deletion ? null : fileSizeCheck(rule, objects, cmd.new);
  }
  if (!cmd.ref.startsWith('refs/heads/') || deletion) return null;
  const branch = cmd.ref.slice(11);
  const defaultBranch = c.project.defaultBranch ?? null;
  if (branch !== defaultBranch && !matches(branch, rule.regexes.branch_name_regex)) return `Branch name does not follow the pattern '${rule.regexes.branch_name_regex}'`;
  const commits = await newCommits(objects, cmd.new);
  for (const [, commit] of commits) {
    const refused = checkCommit(c.state, rule, commit);
    if (refused) return refused;
  }
  for (const [, commit] of commits) {
    const refused = await fileChecks(rule, objects, commit, true, pushedSize(objects));
    if (refused) return refused;
  }
  return null;
}

/** A pushed blob's size (only new blobs count: one already stored passed the check before). */
const pushedSize = (objects: PushObjects) => async (oid: string) => objects.pushed.get(oid)?.content.length;

/**
 * The file checks of one commit against its first parent: the file name rule and the secrets
 * list (`names`), then FileSizeCheck by `sizeOf` (undefined: not checked).
 */
async function fileChecks(
  rule: RuleView,
  objects: PushObjects,
  commit: NonNullable<Awaited<ReturnType<typeof readCommit>>>,
  names: boolean,
  sizeOf: (oid: string) => Promise<number | undefined>,
): Promise<string | null> {
  const parent = commit.parents[0] ? await readCommit(objects, commit.parents[0]) : null;
  const added: string[] = [];
  const blobs: [string, string][] = [];
  await addedFiles(objects, commit.tree, parent?.tree ?? null, '', added, blobs);
  if (names) {
    for (const path of added) {
      const pattern = deniedBy(rule, path);
      if (pattern !== null) return `File name ${path} was prohibited by the pattern "${pattern}".`;
    }
  }
  if (rule.maxFileSize > 0) {
    for (const [path, oid] of blobs) {
      const size = await sizeOf(oid);
      if (size !== undefined && size / 1024 / 1024 > rule.maxFileSize) return tooLarge(path, rule.maxFileSize);
    }
  }
  return null;
}

/** FileSizeCheck's message. */
const tooLarge = (path: string, max: number) => `File "${path}" is larger than the allowed size of ${max} MiB. Use Git LFS to manage this file.`;

/** FileSizeCheck for a tag's new commits. */
async function fileSizeCheck(rule: RuleView, objects: PushObjects, tip: string): Promise<string | null> {
  if (rule.maxFileSize <= 0) return null;
  for (const [, commit] of await newCommits(objects, (await objects.peel(tip)).commit ?? tip)) {
    const refused = await fileChecks(rule, objects, commit, false, pushedSize(objects));
    if (refused) return refused;
  }
  return null;
}

/**
 * The push rule checks of a commit made through the API on `branch` (Gitaly's pre-receive hook,
 * `updated_from_web?`: no committer or membership checks): GitLab's message, or null.
 */
export async function checkWebCommit(c: { state: State; project: ProjectPush['project'] }, rule: RuleView, branch: string, sha: string, repo: PushObjects['repo']): Promise<string | null> {
  if (branch !== c.project.defaultBranch && !matches(branch, rule.regexes.branch_name_regex)) return `Branch name does not follow the pattern '${rule.regexes.branch_name_regex}'`;
  const objects = new PushObjectsOf(repo, new Map());
  const commit = await readCommit(objects, sha);
  if (!commit) return null;
  const refused = checkCommit(c.state, rule, commit, true);
  if (refused) return refused;
  return fileChecks(rule, objects, commit, true, async (oid) => (await repo.readBlob(oid)).length);
}
