// GitLab renders database times as ISO 8601 UTC with milliseconds.
export const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(ms).toISOString());
export const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
