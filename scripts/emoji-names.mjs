// Writes src/families/issuables/emoji-names.ts: the names of GitLab's emoji, the ones an award
// may carry besides the aliases of emoji-aliases.ts (GitLab's fixtures/emojis/aliases.json).
//
// Source: GitLab's fixtures/emojis/digests.json, which `rake tanuki_emoji:digests` writes with one
// key per TanukiEmoji character, the character's name (`thumbsup`, `thumbsup_tone1`,
// `rightwards_hand_light_skin_tone`, `flag_ad`). Only the keys are read. An award's name is valid
// when TanukiEmoji.find_by_alpha_code finds it: one of these names or one of the aliases.
//
// The module in the repository was written from digests.json at gitlabhq/gitlabhq commit
// 3d53332cde3c21c198eb4b7788a84511201d7927 (3779 names).
//
//   node scripts/emoji-names.mjs <gitlab>/fixtures/emojis/digests.json          write the module
//   node scripts/emoji-names.mjs --check <gitlab>/fixtures/emojis/digests.json  exit 1 if it differs
//
// The module packs the names: `word/t` stands for word and word_tone1 … word_tone5, `word/s` for
// word and its five `word_<tone>_skin_tone` forms, `/ts` for both, and a leading `~` leaves the
// word itself out (`~person_golfing/s`: the five skin tones of an emoji named `golfer`). COUNT
// and SHA256 (of the sorted names, one a line) let a test check the unpacked list.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

const TONES = ['light', 'medium_light', 'medium', 'medium_dark', 'dark'];
const OUT = new URL('../src/families/issuables/emoji-names.ts', import.meta.url);
const NAME = /^[a-z0-9_+-]+$/;

export function toneForms(word, flag) {
  return flag === 't' ? [1, 2, 3, 4, 5].map((i) => `${word}_tone${i}`) : TONES.map((t) => `${word}_${t}_skin_tone`);
}

/** The names, packed as the header says, in the order they come. */
export function pack(names) {
  const all = new Set(names);
  const used = new Set();
  const free = (forms) => forms.every((f) => all.has(f) && !used.has(f));
  const tokens = [];
  for (const name of names) {
    if (used.has(name)) continue;
    used.add(name);
    let flags = '';
    for (const flag of ['t', 's']) {
      const forms = toneForms(name, flag);
      if (free(forms)) {
        forms.forEach((f) => used.add(f));
        flags += flag;
      }
    }
    if (flags) {
      tokens.push(`${name}/${flags}`);
      continue;
    }
    // The skin tones of an emoji whose own name is another word (golfer: person_golfing_…).
    const base = name.endsWith('_light_skin_tone') ? name.slice(0, -'_light_skin_tone'.length) : null;
    if (base && !all.has(base) && free(toneForms(base, 's').filter((f) => f !== name))) {
      toneForms(base, 's').forEach((f) => used.add(f));
      tokens.push(`~${base}/s`);
      continue;
    }
    tokens.push(name);
  }
  return tokens.join(' ');
}

export function unpack(packed) {
  const out = new Set();
  for (const token of packed.split(/\s+/)) {
    if (!token) continue;
    const [head, flags = ''] = token.split('/');
    const word = head.startsWith('~') ? head.slice(1) : head;
    if (word === head) out.add(word);
    for (const flag of flags) toneForms(word, flag).forEach((f) => out.add(f));
  }
  return out;
}

export const checksum = (names) => createHash('sha256').update([...names].sort().join('\n')).digest('hex');

function wrap(text, width = 110) {
  const lines = [];
  let line = '';
  for (const token of text.split(' ')) {
    if (line && line.length + 1 + token.length > width) {
      lines.push(line);
      line = token;
    } else line = line ? `${line} ${token}` : token;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

export function moduleText(names) {
  const packed = wrap(pack(names));
  const back = unpack(packed);
  if (back.size !== names.length || names.some((n) => !back.has(n))) throw new Error('packing lost names');
  return `// The names of GitLab's emoji (TanukiEmoji's characters): GitLab's fixtures/emojis/digests.json,
// its keys. Written by scripts/emoji-names.mjs, which says how they are packed; do not edit.
// emoji.ts loads this module with the first emulator and unpacks it on first use, so that
// importing the package reads none of it. An award may carry one of these names or one of the
// aliases in emoji-aliases.ts.
export const COUNT = ${names.length};
export const SHA256 = '${checksum(names)}';
export const PACKED = \`
${packed}
\`;
`;
}

function readNames(file) {
  const keys = Object.keys(JSON.parse(readFileSync(file, 'utf8')));
  const bad = keys.filter((k) => !NAME.test(k));
  if (bad.length) throw new Error(`not an emoji name: ${bad.slice(0, 5).join(', ')}`);
  return keys;
}

const isMain = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  const args = process.argv.slice(2);
  const check = args[0] === '--check';
  const file = check ? args[1] : args[0];
  if (!file) {
    console.error('usage: node scripts/emoji-names.mjs [--check] <gitlab>/fixtures/emojis/digests.json');
    process.exit(2);
  }
  const text = moduleText(readNames(file));
  if (check) {
    const same = readFileSync(OUT, 'utf8') === text;
    console.log(same ? 'emoji-names.ts matches' : 'emoji-names.ts differs: run without --check to rewrite it');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(OUT, text);
  console.log(`wrote ${OUT.pathname}`);
}
