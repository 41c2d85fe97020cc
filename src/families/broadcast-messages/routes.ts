// lib/api/broadcast_messages.rb: anyone lists and reads the instance's broadcast messages
// (newest first); administrators create, change and delete them.
import { arr, bool, datetime, int, str, type Parsed } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import { route } from '../define.js';
import { messageEntity } from './entity.js';
import { messageNotFound } from './errors.js';
import { BROADCAST_TYPES, TARGET_ACCESS_LEVELS, THEMES } from './records.js';
import { createMessage, deleteMessage, findMessage, messagesNewestFirst, updateMessage, type MessageInput } from './rules.js';

const FIELDS = {
  message: str(),
  starts_at: datetime(),
  ends_at: datetime(),
  color: str(),
  font: str(),
  target_access_levels: arr(int().values(TARGET_ACCESS_LEVELS), { commaSeparated: true }),
  target_path: str(),
  broadcast_type: str().values(BROADCAST_TYPES),
  theme: str().values(THEMES),
  dismissable: bool(),
};

const ID = { id: int().required() };

type Given = Partial<Parsed<typeof FIELDS>>;

/** The declared parameters as the model's fields. */
const input = (p: Given): MessageInput => ({
  message: p.message, startsAt: p.starts_at, endsAt: p.ends_at, color: p.color, font: p.font, targetAccessLevels: p.target_access_levels,
  targetPath: p.target_path, broadcastType: p.broadcast_type, theme: p.theme, dismissable: p.dismissable,
});

function found(state: Parameters<typeof findMessage>[0], id: number) {
  const m = findMessage(state, id);
  if (!m) throw messageNotFound();
  return m;
}

export const broadcastMessageRoutes = [
  route({
    method: 'GET', path: '/broadcast_messages', paginated: true, cacheable: true,
    handler: (ctx) => json(ctx.paginate(messagesNewestFirst(ctx.state)).map((m) => messageEntity(m, ctx.now()))),
  }),
  route({
    method: 'POST', path: '/broadcast_messages', auth: 'admin',
    params: { ...FIELDS, message: str().required() },
    handler: (ctx) => created(messageEntity(ctx.update(createMessage({ ...input(ctx.params), message: ctx.params.message }, ctx.now())), ctx.now())),
  }),
  route({
    method: 'GET', path: '/broadcast_messages/:id', params: ID, cacheable: true,
    handler: (ctx) => json(messageEntity(found(ctx.state, ctx.params.id), ctx.now())),
  }),
  route({
    method: 'PUT', path: '/broadcast_messages/:id', auth: 'admin', params: { ...ID, ...FIELDS },
    handler: (ctx) => json(messageEntity(ctx.update(updateMessage(found(ctx.state, ctx.params.id), input(ctx.params))), ctx.now())),
  }),
  route({
    method: 'DELETE', path: '/broadcast_messages/:id', auth: 'admin', params: ID,
    handler: (ctx) => {
      ctx.update(deleteMessage(found(ctx.state, ctx.params.id)));
      return noContent();
    },
  }),
];
