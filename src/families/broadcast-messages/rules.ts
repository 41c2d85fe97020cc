// System::BroadcastMessage's model: its defaults, its validations (a colour is a hex code, the
// times are required), and whether it is active at a time.
import { sequences } from '../../store/state.js';
import { tget, tset, tdel, tvaluesDesc } from '../../store/table.js';
import { plain, type Change } from '../define.js';
import type { State } from '../world.js';
import { invalidMessage } from './errors.js';
import type { BroadcastMessage } from './records.js';

const ids = sequences(['broadcast_message']);
const HOUR = 3_600_000;
/** ColorValidator: `#` and three or six hex digits. */
const COLOR = /^#(?:[0-9a-f]{3}){1,2}$/i;

/** What a caller may set; absent fields keep what is there (or take the model's defaults). */
export type MessageInput = Partial<Omit<BroadcastMessage, 'id'>>;

export const messagesNewestFirst = (state: State): BroadcastMessage[] => [...tvaluesDesc(state.broadcastMessages)];
export const findMessage = (state: State, id: number): BroadcastMessage | undefined => tget(state.broadcastMessages, id);

/** BroadcastMessage#active?: started and not ended. */
export const isActive = (m: BroadcastMessage, now: number): boolean => now >= m.startsAt && now <= m.endsAt;

function validate(m: Omit<BroadcastMessage, 'id'>): void {
  const errors: Record<string, string[]> = {};
  if (m.message.trim() === '') errors.message = ["can't be blank"];
  if (m.color !== '' && !COLOR.test(m.color)) errors.color = ['must be a valid color code'];
  if (m.font !== '' && !COLOR.test(m.font)) errors.font = ['must be a valid color code'];
  if (Object.keys(errors).length) throw invalidMessage(errors);
}

/** BroadcastMessage.create: starts now and ends an hour later unless told, a banner, GitLab's colours and theme. */
export function createMessage(input: MessageInput & { message: string }, now: number): Change<BroadcastMessage> {
  const fields: Omit<BroadcastMessage, 'id'> = {
    message: input.message, startsAt: input.startsAt ?? now, endsAt: input.endsAt ?? now + HOUR, color: input.color ?? '#E75E40', font: input.font ?? '#FFFFFF',
    targetAccessLevels: input.targetAccessLevels ?? [], targetPath: input.targetPath ?? null, broadcastType: input.broadcastType ?? 'banner',
    theme: input.theme ?? 'indigo', dismissable: input.dismissable ?? null,
  };
  validate(fields);
  return (draft) => {
    const made: BroadcastMessage = { id: ids.next(draft, 'broadcast_message'), ...fields };
    tset((draft as State).broadcastMessages, made.id, made);
    return made;
  };
}

/** BroadcastMessage#update with the fields given. */
export function updateMessage(m: BroadcastMessage, input: MessageInput): Change<BroadcastMessage> {
  const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as MessageInput;
  const next: BroadcastMessage = { ...m, ...given };
  validate(next);
  return (draft) => {
    tset((draft as State).broadcastMessages, m.id, next);
    return plain(next);
  };
}

export function deleteMessage(m: BroadcastMessage): Change {
  return (draft) => void tdel((draft as State).broadcastMessages, m.id);
}
