// Reading and writing .gitlab-ci.yml (Gitlab::Config::Loader::Yaml, Psych): YAML 1.1 as Ruby
// reads it (`yes`/`on` are true, merge keys `<<`, anchors and aliases, a later duplicate key
// wins), with GitLab's `!reference [job, key]` tag kept as a Reference until it is resolved.
import type { CollectionTag, CreateNodeOptions, parseDocument, Schema, ToJSOptions, YAMLSeq } from 'yaml';
import { lazyModule } from '../../../core/lazy.js';

/** yaml, loaded at the first file read (~40 ms of CPU the package's import does not pay). */
const yaml = lazyModule('yaml', () => import('yaml'));

/** `!reference [.setup, script]`: a path into the merged configuration, resolved after `extends`. */
export class Reference {
  constructor(readonly path: unknown[]) {}
  /** As GitLab prints a reference in its errors: `!reference [".setup", "script"]`. */
  toString(): string {
    return `!reference [${this.path.map((p) => JSON.stringify(String(p))).join(', ')}]`;
  }
}

let referenceTagMade: CollectionTag | undefined;

/** The `!reference` tag: a sequence read as a Reference (made at the first use, as it extends yaml's class). */
function referenceTag(): CollectionTag {
  if (referenceTagMade) return referenceTagMade;
  class ReferenceSeq extends yaml().YAMLSeq {
    override toJSON(_key?: unknown, ctx?: Parameters<YAMLSeq['toJSON']>[1]): unknown[] {
      // A Reference stands where the list was; the declared type is the base class's.
      return new Reference(super.toJSON(_key, ctx)) as unknown as unknown[];
    }
  }
  return (referenceTagMade = {
    tag: '!reference',
    collection: 'seq' as const,
    nodeClass: ReferenceSeq,
    resolve(seq: YAMLSeq): ReferenceSeq {
      const r = new ReferenceSeq(seq.schema as Schema | undefined);
      r.items = seq.items;
      r.range = seq.range;
      return r;
    },
  } as unknown as CollectionTag);
}

/** Psych's booleans: `y` and `n` stay strings (YAML 1.1's own list has them). */
const RUBY_TRUE = /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/;
const RUBY_FALSE = /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/;

type Tags = Exclude<NonNullable<Parameters<typeof parseDocument>[1]>['customTags'], undefined>;
const tagsOf = ((tags: { tag: string; test?: RegExp }[]) =>
  [
    ...tags.map((t) => (t.tag === 'tag:yaml.org,2002:bool' && t.test ? { ...t, test: t.test.test('yes') ? RUBY_TRUE : RUBY_FALSE } : t)),
    referenceTag(),
  ]) as unknown as Tags;

/** Loader::Yaml's limits: a parsed document deeper than this is refused. */
const MAX_DEPTH = 100;
const MAX_ALIASES = 100;

export type Loaded = { ok: true; value: unknown } | { ok: false; error: string };

function depthOf(v: unknown, d = 0): number {
  if (d > MAX_DEPTH) return d;
  if (Array.isArray(v)) return Math.max(d, ...v.map((x) => depthOf(x, d + 1)));
  if (v && typeof v === 'object' && !(v instanceof Reference)) return Math.max(d, ...Object.values(v).map((x) => depthOf(x, d + 1)));
  return d;
}

/** A few recent answers by their input: the same file is read again at every push that keeps it. */
class Recent<V> {
  #map = new Map<string, V>();
  constructor(private readonly size: number) {}
  get(key: string): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): V {
    this.#map.set(key, v);
    if (this.#map.size > this.size) this.#map.delete(this.#map.keys().next().value!);
    return v;
  }
}

const loadedTexts = new Recent<Loaded>(64);
const dumpedValues = new Recent<string>(64);

/**
 * Parses one YAML document into plain values (maps as null-prototype objects, keys as strings).
 * Nothing downstream changes what it returns (every step builds new maps), so it is shared.
 */
export function loadYaml(text: string): Loaded {
  return loadedTexts.get(text) ?? loadedTexts.set(text, parseYaml(text));
}

/** The yaml library's words for the syntax errors people make most, as Psych (libyaml) words them. */
const PSYCH_WORDING: [RegExp, string][] = [
  [/^Nested mappings are not allowed in compact mappings/, 'mapping values are not allowed in this context'],
  [/^Flow sequence .* end with a \]/, "did not find expected ',' or ']' while parsing a flow sequence"],
  [/^Flow map .* end with a \}/, "did not find expected ',' or '}' while parsing a flow mapping"],
  [/^Missing closing "?quote/, 'found unexpected end of stream while scanning a quoted scalar'],
  [/^All mapping items must start at the same column/, 'did not find expected key while parsing a block mapping'],
  [/^All sequence items must start at the same column/, "did not find expected '-' indicator while parsing a block collection"],
];

function psychWording(message: string): string {
  const hit = PSYCH_WORDING.find(([re]) => re.test(message));
  return hit ? hit[1] : message;
}

/** Loader::Yaml's MAX_YAML_SIZE. */
const MAX_SIZE = 1024 * 1024;

function parseYaml(text: string): Loaded {
  if (text.length > MAX_SIZE) return { ok: false, error: 'The parsed YAML is too big' };
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { version: '1.1', merge: true, uniqueKeys: false, customTags: tagsOf, prettyErrors: false, lineCounter });
  const err = doc.errors[0];
  // Nesting too deep for the parser is Loader::Yaml's depth limit.
  if (err && /Maximum call stack/.test(err.message)) return { ok: false, error: 'The parsed YAML is too big' };
  if (err) {
    const pos = lineCounter.linePos(err.pos[0]);
    const where = pos ? ` at line ${pos.line} column ${pos.col}` : '';
    return { ok: false, error: `(<unknown>): ${psychWording(err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''))}${where}` };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIASES, mapAsMap: false } as ToJSOptions);
  } catch (e) {
    if (e instanceof RangeError) return { ok: false, error: 'The parsed YAML is too big' };
    const alias = /Unresolved alias.*?: (.*)$/.exec((e as Error).message);
    // Psych::AnchorNotDefined, which GitLab's loader answers as it is.
    if (alias) return { ok: false, error: `An alias referenced an unknown anchor: ${alias[1]}` };
    return { ok: false, error: `(<unknown>): ${(e as Error).message}` };
  }
  value = plainCopy(value);
  if (depthOf(value) > MAX_DEPTH) return { ok: false, error: 'The parsed YAML is too big' };
  return { ok: true, value };
}

/**
 * A copy whose maps have no prototype, so a key such as `__proto__` is an ordinary key; a key
 * written as a Ruby symbol (`:test_job:`) is its name, as Psych and deep_symbolize_keys read it.
 */
function plainCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plainCopy);
  if (v instanceof Reference) return new Reference(v.path.map(plainCopy));
  if (v instanceof Date) return v.toISOString();
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, x] of Object.entries(v)) out[/^:[^\s:]/.test(k) ? k.slice(1) : k] = plainCopy(x);
    return out;
  }
  return v;
}

const NULL_MARK = 'psych-nil-4f1c9b';

/** As Ruby's `to_yaml` writes a hash: a `---` line, sequences not indented under their key. */
export function dumpYaml(value: unknown): string {
  const key = JSON.stringify(value, (_k, v: unknown) => (v instanceof Reference ? { '!reference': v.path } : v));
  return dumpedValues.get(key) ?? dumpedValues.set(key, writeYaml(value));
}

function writeYaml(value: unknown): string {
  const body = yaml().stringify(toWritable(value), { indentSeq: false, lineWidth: 0, singleQuote: true, version: '1.1', customTags: tagsOf, nullStr: NULL_MARK } as CreateNodeOptions & { indentSeq: boolean });
  // Psych writes a nil as nothing after its `key: ` or `- `.
  return `---\n${body.replaceAll(NULL_MARK, '')}`;
}

function toWritable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(toWritable);
  if (v instanceof Reference) return v.path;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: toWritable(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}
