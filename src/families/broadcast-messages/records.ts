// A broadcast message (System::BroadcastMessage): a banner or notification the instance shows
// between two times, to some roles or paths.
export const THEMES = ['indigo', 'light-indigo', 'blue', 'light-blue', 'green', 'light-green', 'red', 'light-red', 'dark', 'light'] as const;
export const BROADCAST_TYPES = ['banner', 'notification'] as const;
/** BroadcastMessage::ALLOWED_TARGET_ACCESS_LEVELS: Guest, Reporter, Developer, Maintainer, Owner. */
export const TARGET_ACCESS_LEVELS = [10, 20, 30, 40, 50] as const;

export interface BroadcastMessage {
  id: number;
  message: string;
  startsAt: number;
  endsAt: number;
  color: string;
  font: string;
  targetAccessLevels: number[];
  targetPath: string | null;
  broadcastType: (typeof BROADCAST_TYPES)[number];
  theme: (typeof THEMES)[number];
  dismissable: boolean | null;
}
