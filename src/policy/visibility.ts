// Visibility levels as GitLab stores them (Gitlab::VisibilityLevel).
import type { Visibility } from '../store/state.js';

export const VISIBILITY_ORDER: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };
export const VISIBILITIES: readonly Visibility[] = ['private', 'internal', 'public'];

export function minVisibility(a: Visibility, b: Visibility): Visibility {
  return VISIBILITY_ORDER[a] <= VISIBILITY_ORDER[b] ? a : b;
}
