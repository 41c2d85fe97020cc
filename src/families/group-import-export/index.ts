// Group export and import (lib/api/group_export.rb, group_import.rb): an owner asks for the
// group's export (202) and downloads the file once it is made, here at once; a file so made
// imports as a new group, named and placed as the request says, with the exported description
// and visibility (the group's records are not carried over, as GitLab imports them in the
// background).
import { forbidden, messageError } from '../../core/errors.js';
import { fromBase64, toBase64 } from '../../git/bytes.js';
import { any, int, str } from '../../http/params.js';
import { findGroup } from '../../http/resolve.js';
import { json, type Reply } from '../../http/route.js';
import { isoDate } from '../../render/time.js';
import { emptyTable, tdel, tget, tset, type Table } from '../../store/table.js';
import type { Visibility } from '../../store/state.js';
import { defineFamily, group, route, type Family } from '../define.js';
import { canCreateGroupIn, canOwnGroup, newGroup } from '../groups/index.js';
import { GITLAB_VERSION } from '../instance/index.js';
import type { State } from '../world.js';
import { packExport, unpackExport } from './archive.js';

export interface GroupExport {
  /** The file, Base64. */
  file: string;
  createdAt: number;
}

export interface GroupExportsSlice {
  /** Group id -> its last export. */
  groupExports: Table<GroupExport>;
}

declare module '../world.js' {
  interface Slices extends GroupExportsSlice {}
}

const LEVELS: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };

const routes = [
  route({
    method: 'POST', path: '/groups/:id/export', auth: 'user', scope: group(canOwnGroup),
    handler: (ctx): Reply => {
      const g = ctx.group;
      const now = ctx.now();
      const attributes = { id: g.id, name: g.name, path: g.path, description: g.description, visibility_level: LEVELS[g.visibility] };
      const file = packExport({
        GITLAB_VERSION: `${GITLAB_VERSION}\n`,
        GITLAB_REVISION: 'emulator\n',
        'tree/groups/_all.ndjson': `${g.id}\n`,
        [`tree/groups/${g.id}.json`]: JSON.stringify(attributes),
      }, now);
      ctx.update((draft) => void tset((draft as State).groupExports, g.id, { file: toBase64(file), createdAt: now }));
      return json({ message: '202 Accepted' }, 202);
    },
  }),
  route({
    method: 'GET', path: '/groups/:id/export/download', auth: 'user', scope: group(canOwnGroup),
    handler: (ctx): Reply => {
      const made = tget(ctx.state.groupExports, ctx.group.id);
      if (!made) throw messageError(404, '404 Not found or has expired');
      const name = `${isoDate(made.createdAt)}_${ctx.group.fullPath.replace(/\//g, '_')}_export.tar.gz`;
      return { status: 200, raw: fromBase64(made.file), contentType: 'application/octet-stream', headers: { 'Content-Disposition': `attachment; filename="${name}"` } };
    },
  }),
  route({
    method: 'POST', path: '/groups/import', auth: 'user',
    params: { path: str().required(), name: str().required(), file: any().required(), parent_id: int() },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const parent = p.parent_id !== undefined ? findGroup(ctx, String(p.parent_id)) : undefined;
      if (!canCreateGroupIn(ctx.state, ctx.user!, parent, ctx.now())) throw forbidden();
      const upload = p.file;
      if (!(upload instanceof Blob)) throw messageError(400, 'Invalid file');
      const files = unpackExport(new Uint8Array(await upload.arrayBuffer()));
      const tree = files && [...files.entries()].find(([n]) => /^tree\/groups\/\d+\.json$/.test(n));
      if (!tree) throw messageError(400, 'Invalid file');
      let attributes: { description?: unknown; visibility_level?: unknown };
      try {
        attributes = JSON.parse(tree[1]) as typeof attributes;
      } catch {
        throw messageError(400, 'Invalid file');
      }
      const visibility = (Object.keys(LEVELS) as Visibility[]).find((v) => LEVELS[v] === attributes.visibility_level);
      const input = {
        name: p.name, path: p.path, parentId: parent?.id ?? null, creatorId: ctx.user!.id,
        description: typeof attributes.description === 'string' ? attributes.description : undefined, visibility,
      };
      ctx.update(newGroup(ctx.state, input, ctx.now()));
      return json({ message: '202 Accepted' }, 202);
    },
  }),
];

export const groupImportExport: Family<GroupExportsSlice> = defineFamily({
  name: 'group-import-export',
  state: () => ({ groupExports: emptyTable() }),
  routes,
  forget: { group: (draft, id) => void tdel((draft as State).groupExports, id) },
});
