// `spec:inputs` (lib/gitlab/ci/config/header/**, interpolation/**): a file may begin with a
// header document, `spec: inputs: {...}`, then `---` and its content, where `$[[ inputs.name ]]`
// is replaced by the value given (by `include: inputs:` or the pipeline's inputs) or the default.
import { lazyModule } from '../../../core/lazy.js';
import { ConfigError, isHash, type Hash } from './values.js';

const yaml = lazyModule('yaml', () => import('yaml'));

const INPUT_KEYS = ['default', 'description', 'options', 'regex', 'type', 'rules'];
const TYPES = ['string', 'number', 'boolean', 'array'];
const BLOCK = /\$\[\[\s*(.*?)\s*\]\]/g;
/** Interpolator: at most this many input errors are named in the message. */
const MAX_ERRORS = 3;

export interface SplitFile {
  /** The `spec` header, when the file has one. */
  spec: Hash | null;
  /** The content document's text. */
  content: string;
}

/** Yaml::Documents: a header document first when the file has two and the first holds `spec`. */
export function splitHeader(text: string): SplitFile {
  if (!/^---/m.test(text)) return { spec: null, content: text };
  const docs = yaml().parseAllDocuments(text, { version: '1.1' });
  if (!Array.isArray(docs) || docs.length < 2) return { spec: null, content: text };
  const first = docs[0]!.toJS() as unknown;
  if (!isHash(first) || !('spec' in first)) return { spec: null, content: text };
  return { spec: isHash(first.spec) ? first.spec : {}, content: text.slice(docs[1]!.range[0]) };
}

function typeOf(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return 'number';
  return 'string';
}

/** The inputs' values after the header's checks, or GitLab's message. */
function resolveInputs(spec: Hash | null, given: Record<string, unknown> | undefined): Record<string, unknown> {
  const args = given ?? {};
  if (!spec) {
    if (Object.keys(args).length) throw new ConfigError('Given inputs not defined in the `spec` section of the included configuration file');
    return {};
  }
  const unknownSpec = Object.keys(spec).filter((k) => !['inputs', 'include', 'component'].includes(k));
  if (unknownSpec.length) throw new ConfigError(`header:spec config contains unknown keys: ${unknownSpec.join(', ')}`);
  const declared = isHash(spec.inputs) ? spec.inputs : {};
  const unknownArgs = Object.keys(args).filter((k) => !Object.hasOwn(declared, k));
  if (unknownArgs.length) throw new ConfigError(`unknown input arguments: ${unknownArgs.join(', ')}`);
  const errors: string[] = [];
  const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const name of Object.keys(declared).sort()) {
    const d = declared[name];
    const def: Hash = isHash(d) ? d : {};
    const unknownKeys = Object.keys(def).filter((k) => !INPUT_KEYS.includes(k));
    if (unknownKeys.length) {
      errors.push(`\`${name}\` input: unknown input specification for \`${name}\` (valid types: ${TYPES.join(', ')})`);
      continue;
    }
    const type = typeof def.type === 'string' ? def.type : 'string';
    if (!TYPES.includes(type)) {
      errors.push(`\`${name}\` input: unknown input specification for \`${name}\` (valid types: ${TYPES.join(', ')})`);
      continue;
    }
    const provided = Object.hasOwn(args, name);
    const value = provided ? args[name] : def.default;
    if (value === undefined || value === null) {
      errors.push(`\`${name}\` input: required value has not been provided`);
      continue;
    }
    if (typeOf(value) !== type) {
      errors.push(`\`${name}\` input: ${provided ? 'provided' : 'default'} value is not a${type === 'array' ? 'n' : ''} ${type}`);
      continue;
    }
    if (Array.isArray(def.options) && !def.options.some((o) => o === value)) {
      errors.push(`\`${name}\` input: \`${String(value)}\` cannot be used because it is not in the list of allowed options`);
      continue;
    }
    if (typeof def.regex === 'string' && type === 'string') {
      let ok = false;
      try {
        ok = new RegExp(def.regex.replace(/^\/(.*)\/$/s, '$1')).test(String(value));
      } catch {
        ok = false;
      }
      if (!ok) {
        errors.push(`\`${name}\` input: provided value does not match required RegEx pattern`);
        continue;
      }
    }
    values[name] = value;
  }
  if (errors.length) throw new ConfigError(errors.slice(0, MAX_ERRORS).join(', '));
  return values;
}

/** The text of one input's value where `$[[ ]]` stood. */
function render(v: unknown): string {
  if (Array.isArray(v) || isHash(v)) return JSON.stringify(v);
  return String(v);
}

/**
 * The file's content with its inputs interpolated. `where` names an included file in errors
 * (`\`ci/x.yml\`: interpolation interrupted by errors, ...`); the root file's are plain.
 */
export function interpolate(text: string, given: Record<string, unknown> | undefined, where?: string): string {
  const { spec, content } = splitHeader(text);
  if (!spec && !given) return text;
  const wrap = (e: unknown): never => {
    if (e instanceof ConfigError && where) throw new ConfigError(`\`${where}\`: ${e.message}`);
    throw e;
  };
  let values: Record<string, unknown> = {};
  try {
    values = resolveInputs(spec, given);
  } catch (e) {
    wrap(e);
  }
  try {
    return content.replace(BLOCK, (_m, expr: string) => {
      const [access, ...functions] = expr.split('|').map((s) => s.trim());
      const path = /^inputs\.([\w-]+)$/.exec(access ?? '');
      if (!path) {
        const key = /^inputs\.([\w-]+)/.exec(access ?? '')?.[1] ?? access;
        throw new ConfigError(`interpolation interrupted by errors, unknown interpolation key: \`${key}\``);
      }
      if (!Object.hasOwn(values, path[1]!)) throw new ConfigError(`interpolation interrupted by errors, unknown interpolation key: \`${path[1]}\``);
      let out = render(values[path[1]!]);
      for (const f of functions) {
        const t = /^truncate\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(f);
        if (t) out = out.slice(Number(t[1]), Number(t[1]) + Number(t[2]));
        else if (f !== 'expand_vars') throw new ConfigError(`interpolation interrupted by errors, no function matching \`${f}\`: check that the function name, arguments, and types are correct`);
      }
      return out;
    });
  } catch (e) {
    return wrap(e);
  }
}
