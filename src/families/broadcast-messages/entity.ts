// Entities::System::BroadcastMessage.
import { iso } from '../../render/time.js';
import type { BroadcastMessage } from './records.js';
import { isActive } from './rules.js';

export function messageEntity(m: BroadcastMessage, now: number) {
  return {
    id: m.id,
    message: m.message,
    starts_at: iso(m.startsAt),
    ends_at: iso(m.endsAt),
    color: m.color,
    font: m.font,
    target_access_levels: m.targetAccessLevels,
    target_path: m.targetPath,
    broadcast_type: m.broadcastType,
    theme: m.theme,
    dismissable: m.dismissable,
    active: isActive(m, now),
  };
}
