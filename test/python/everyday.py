# python-gitlab against the emulator's server: the everyday calls of the neighbours, CI/CD,
# issues, users and members families. Prints one JSON object of what it saw.
import json
import sys

import gitlab

url = sys.argv[1]
gl = gitlab.Gitlab(url, private_token="glpat-emulator-root-token")
out = {}

out["version"] = gl.version()[0]
p = gl.projects.get("acme/website")

# Commits with actions, the tree, compare (issue 10).
commit = p.commits.create(
    {
        "branch": "main",
        "commit_message": "Add the docs",
        "actions": [
            {"action": "create", "file_path": "docs/install.md", "content": "# Install\n"},
            {"action": "create", "file_path": "docs/usage.md", "content": "# Usage\n"},
        ],
    }
)
out["commit_title"] = commit.title
out["tree"] = sorted(entry["path"] for entry in p.repository_tree(path="docs", ref="main", get_all=True))
out["compare_commits"] = [c["title"] for c in p.repository_compare("v1.0.0", "main")["commits"]]

# Users and their tokens (issue 15).
out["users"] = [u.username for u in gl.users.list(username="alice")]
bob = gl.users.create(
    {"username": "bob", "name": "Bob", "email": "bob@example.com", "password": "Secure-password-42", "skip_confirmation": True}
)
token = bob.personal_access_tokens.create({"name": "scripts", "scopes": ["api"]})
out["bob_token_works"] = gitlab.Gitlab(url, private_token=token.token).projects.get("acme/website").path
out["pat_names"] = sorted(t.name for t in gl.personal_access_tokens.list(user_id=bob.id, get_all=True))

# Members (issue 16).
p.members.create({"user_id": bob.id, "access_level": 30})
out["members_all"] = sorted(m.username for m in p.members_all.list(get_all=True))

# CI/CD variables and artifacts (issue 12).
p.variables.create({"key": "DEPLOY_KEY", "value": "secret-value-1", "masked": True})
out["variables"] = [(v.key, v.masked) for v in p.variables.list(get_all=True)]
archive = p.artifacts.download(ref_name="main", job="build")
out["artifacts_zip"] = archive[:2] == b"PK"

# Issues, time tracking, to-dos (issue 13).
issue = p.issues.create({"title": "Crash on start", "labels": "bug"})
out["issues"] = [i.title for i in p.issues.list(labels="bug", get_all=True)]
issue.time_estimate("1h 30m")
# time_stats() answers what the issue object holds: read the issue again.
out["time_estimate"] = p.issues.get(issue.iid).time_stats()["human_time_estimate"]
issue.unsubscribe()  # its author is subscribed already
issue.subscribe()
out["subscribed"] = p.issues.get(issue.iid).subscribed
issue.todo()
out["todos"] = [t.target["title"] for t in gl.todos.list(get_all=True)]
# Resource events (issue 14): what closing and labelling recorded.
issue.state_event = "close"
issue.save()
out["state_events"] = [e.state for e in issue.resourcestateevents.list(get_all=True)]
out["label_events"] = [[e.action, e.label["name"]] for e in issue.resourcelabelevents.list(get_all=True)]

# Notes and commit comments (issue 14).
note = p.issues.get(issue.iid).notes.create({"body": "Seen it too"})
note.body = "Seen it, too"
note.save()
out["issue_notes"] = [n.body for n in p.issues.get(issue.iid).notes.list(get_all=True) if not n.system]
# Quick actions in notes: text with a command is stored and acts; commands alone answer 202.
p.issues.get(issue.iid).notes.create({"body": "Back again\n/reopen"})
out["reopened_by_note"] = p.issues.get(issue.iid).state
only = p.issues.get(issue.iid).notes.create({"body": "/estimate 1h"})
out["commands_only"] = [only.commands_changes, only.summary]
# Discussions: a thread and a reply.
thread = p.issues.get(issue.iid).discussions.create({"body": "A thread"})
thread.notes.create({"body": "A reply"})
out["thread_notes"] = [n["body"] for n in p.issues.get(issue.iid).discussions.get(thread.id).attributes["notes"]]
commit = p.commits.get("main")
commit.comments.create({"note": "Nice commit"})
out["commit_comments"] = [c.note for c in commit.comments.list(get_all=True)]

# Group wikis (higher tier; the default world is Ultimate): a page made, edited, listed and read.
g = gl.groups.get("acme")
page = g.wikis.create({"title": "Runbook/On call", "content": "# On call\n"})
page.content = "# On call\nPage the owner.\n"
page.save()
out["group_wiki_slugs"] = [w.slug for w in g.wikis.list(get_all=True)]
out["group_wiki_content"] = g.wikis.get(page.slug).content

# Snippets, each a git repository (issue 14): python-gitlab 3.12 creates them with file_name and content.
ps = p.snippets.create({"title": "Setup", "file_name": "setup.sh", "content": "echo one\n", "visibility": "private"})
p.snippets.update(ps.id, {"content": "echo two\n"})
out["project_snippet_content"] = p.snippets.get(ps.id).content().decode()
out["project_snippet_first_version"] = gl.http_get(
    f"/projects/{p.id}/snippets/{ps.id}/files/main~1/setup.sh/raw", raw=True
).content.decode()
sn = gl.snippets.create({"title": "Notes", "file_name": "notes.md", "content": "# Notes\n", "visibility": "public"})
gl.snippets.update(sn.id, {"file_name": "renamed.md"})
out["snippet_file_name"] = gl.snippets.get(sn.id).file_name
out["snippet_content"] = gl.snippets.get(sn.id).content().decode()
out["public_snippets"] = [s.title for s in gl.snippets.public()]
out["snippet_user_agent"] = sorted(sn.user_agent_detail().keys())

# A merge request's review (issue 14): a comment on a line of its diff, award emoji on it and on
# a note, to-do, participants; then deleted.
p.branches.create({"branch": "review", "ref": "main"})
p.files.create({"file_path": "docs/review.md", "branch": "review", "content": "one\ntwo\n", "commit_message": "Review me"})
mr = p.mergerequests.create({"source_branch": "review", "target_branch": "main", "title": "Review me"})
refs = p.mergerequests.get(mr.iid).diff_refs
line = mr.discussions.create({"body": "Typo here", "position": dict(refs, position_type="text", new_path="docs/review.md", old_path="docs/review.md", new_line=2)})
out["diff_note"] = [line.attributes["notes"][0]["type"], line.attributes["notes"][0]["position"]["new_line"]]
mr.awardemojis.create({"name": "thumbsup"})
mr_note = mr.notes.create({"body": "Looks good"})
mr_note.awardemojis.create({"name": "tada"})
out["mr_awards"] = [[a.name for a in mr.awardemojis.list(get_all=True)], [a.name for a in mr_note.awardemojis.list(get_all=True)]]
mr.unsubscribe()  # its author is subscribed already
out["mr_subscribed"] = p.mergerequests.get(mr.iid).subscribed
mr.todo()
out["mr_todo_types"] = sorted(t.target_type for t in gl.todos.list(get_all=True))
out["mr_participants"] = [u["username"] for u in mr.participants()]
mr.delete()
out["mr_deleted"] = [m.iid for m in p.mergerequests.list(get_all=True) if m.iid == mr.iid]

# A storage move (issue 16): the repository is read-only while it runs. python-gitlab 3.12 (Debian's)
# has no manager for storage moves (4.x has project.repository_storage_moves), so its raw call.
move = gl.http_post(f"/projects/{p.id}/repository_storage_moves", post_data={"destination_storage_name": "storage2"})
out["move_state"] = move["state"]
try:
    p.files.create({"file_path": "late.md", "branch": "main", "content": "x", "commit_message": "Late"})
    out["write_during_move"] = "accepted"
except gitlab.exceptions.GitlabCreateError as e:
    out["write_during_move"] = e.error_message

print(json.dumps(out))
