// The emoji names an award may have (emoji-names.ts), loaded with the first emulator (the
// family's `load`) and made a set on first use, so that a world which never awards an emoji never
// builds it.
let text: string | undefined;
let names: Set<string> | undefined;

export async function loadEmojiNames(): Promise<void> {
  text ??= (await import('./emoji-names.js')).NAMES;
}

/** TanukiEmoji.find_by_alpha_code: whether the name is one of GitLab's emoji. */
export function isEmojiName(name: string): boolean {
  if (text === undefined) throw new Error('emoji names are loaded with the first emulator');
  names ??= new Set(text.split(' '));
  return names.has(name);
}
