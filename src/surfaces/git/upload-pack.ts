// git-upload-pack over smart HTTP (gitprotocol-http, gitprotocol-v2, gitprotocol-pack): the ref
// advertisement, protocol v2's `ls-refs` and `fetch` (with `have` negotiation and a shallow
// `deepen`), and protocol v0's single round for clients that still speak it (isomorphic-git).
// Packs are built from the object store as it keeps each object's entry (a pushed object as
// git compressed it, deltas included), sent on side-band 1.
import { deltasToSendWhole, writePack, type PackedObject } from '../../git/pack.js';
import { concat, DELIM, FLUSH, framed, PktLineError, pkt, readPackets, text, type Packet } from '../../git/pktline.js';
import type { RepositoryObjects } from '../../git/objects.js';
import type { StoredPack } from '../../git/packfile.js';
import { NothingSelected, selectObjects } from '../../git/walk.js';
import type { Advertised, AdvertisedRef } from '../../git/transfer.js';

export const AGENT = 'agent=git/2.39.5-gitlab-emulator';
const ZERO = '0000000000000000000000000000000000000000';

/** A request git cannot go on with: sent as `ERR <message>`, which git prints and stops on. */
export class ProtocolError extends Error {}

/** `info/refs?service=git-upload-pack`: the v2 capabilities, or the v0 ref advertisement. */
export function uploadPackAdvertisement(source: Refs, v2: boolean): Uint8Array {
  if (v2) {
    // `filter` is not offered: git then warns "filtering not recognized by server, ignoring" and fetches everything.
    return concat([pkt('version 2\n'), pkt(`${AGENT}\n`), pkt('ls-refs=unborn\n'), pkt('fetch=shallow\n'), pkt('server-option\n'), pkt('object-format=sha1\n'), FLUSH]);
  }
  const { refs, head } = source();
  const caps = `multi_ack multi_ack_detailed thin-pack side-band side-band-64k ofs-delta shallow deepen-since deepen-relative no-progress include-tag allow-tip-sha1-in-want allow-reachable-sha1-in-want symref=HEAD:${head} object-format=sha1 ${AGENT}`;
  return concat([pkt('# service=git-upload-pack\n'), FLUSH, ...v0Lines(refs, caps), FLUSH]);
}

/** Refs as protocol v0 lists them: capabilities after the first, each annotated tag followed by its `^{}`. */
export function v0Lines(refs: readonly AdvertisedRef[], caps: string): Uint8Array[] {
  if (refs.length === 0) return [pkt(`${ZERO} capabilities^{}\0${caps}\n`)];
  const out: Uint8Array[] = [];
  for (const r of refs) {
    out.push(pkt(out.length === 0 ? `${r.oid} ${r.name}\0${caps}\n` : `${r.oid} ${r.name}\n`));
    if (r.peeled) out.push(pkt(`${r.peeled} ${r.name}^{}\n`));
  }
  return out;
}

/** One command of a v2 request: its name, capabilities and arguments. */
interface V2Request {
  command: string;
  args: string[];
}

function parseV2(body: Uint8Array): V2Request {
  const { packets } = readPackets(body);
  let command = '';
  const args: string[] = [];
  let inArgs = false;
  for (const p of packets) {
    if (p.kind === 'delim') inArgs = true;
    else if (p.kind === 'flush') break;
    else if (p.kind === 'data') {
      const line = text(p)!;
      if (!inArgs) {
        if (line.startsWith('command=')) command = line.slice(8);
      } else args.push(line);
    }
  }
  return { command, args };
}

/** `POST git-upload-pack`: a v2 command, or v0's wants and haves, over the repository whose refs `refs` lists. */
export async function uploadPack(repo: RepositoryObjects, refs: Refs, body: Uint8Array, v2: boolean): Promise<Uint8Array> {
  try {
    if (!v2) return await fetchV0(repo, refs, readPackets(body).packets);
    const req = parseV2(body);
    if (req.command === 'ls-refs') return lsRefs(refs, req.args);
    if (req.command === 'fetch') return await fetchV2(repo, refs, req.args);
    throw new ProtocolError(`invalid command '${req.command}'`);
  } catch (e) {
    if (e instanceof ProtocolError) return concat([pkt(`ERR ${e.message}\n`), FLUSH]);
    if (e instanceof PktLineError) return concat([pkt(`ERR protocol error: ${e.message}\n`), FLUSH]);
    throw e;
  }
}

/** The refs of the repository a request reads (computed when asked). */
export type Refs = () => Advertised;

function lsRefs(source: Refs, args: string[]): Uint8Array {
  const prefixes = args.filter((a) => a.startsWith('ref-prefix ')).map((a) => a.slice(11));
  const symrefs = args.includes('symrefs');
  const peel = args.includes('peel');
  const { refs, head } = source();
  const wanted = (name: string) => prefixes.length === 0 || prefixes.some((p) => name.startsWith(p));
  const out: Uint8Array[] = [];
  if (args.includes('unborn') && wanted('HEAD') && !refs.some((r) => r.name === 'HEAD')) out.push(pkt(`unborn HEAD symref-target:${head}\n`));
  for (const r of refs) {
    if (!wanted(r.name)) continue;
    let line = `${r.oid} ${r.name}`;
    if (symrefs && r.symref) line += ` symref-target:${r.symref}`;
    if (peel && r.peeled) line += ` peeled:${r.peeled}`;
    out.push(pkt(`${line}\n`));
  }
  return concat([...out, FLUSH]);
}

interface Negotiation {
  wants: string[];
  haves: string[];
  done: boolean;
  depth?: number;
  since?: number;
  relative?: boolean;
  shallow: string[];
  includeTag: boolean;
}

function checkWants(repo: RepositoryObjects, wants: readonly string[], source: Refs): void {
  const advertised = source();
  const tips = advertised.tipsOnly ? new Set(advertised.refs.flatMap((r) => (r.peeled ? [r.oid, r.peeled] : [r.oid]))) : null;
  for (const w of wants) {
    if (!/^[0-9a-f]{40}$/.test(w)) throw new ProtocolError(`protocol error: expected sha/ref, got '${w}'`);
    if (!repo.has(w) || (tips && !tips.has(w))) throw new ProtocolError(`upload-pack: not our ref ${w}`);
  }
}

function since(value: string): number {
  if (!/^\d+$/.test(value)) throw new ProtocolError(`invalid deepen-since: ${value}`);
  return Number(value);
}

function deepen(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new ProtocolError(`invalid deepen: ${value}`);
  return n;
}

async function fetchV2(repo: RepositoryObjects, source: Refs, args: string[]): Promise<Uint8Array> {
  const n: Negotiation = { wants: [], haves: [], done: false, shallow: [], includeTag: false };
  for (const a of args) {
    const [k, ...rest] = a.split(' ');
    const v = rest.join(' ');
    if (k === 'want') n.wants.push(v);
    else if (k === 'have') n.haves.push(v);
    else if (k === 'done') n.done = true;
    else if (k === 'shallow') n.shallow.push(v);
    else if (k === 'deepen') n.depth = deepen(v);
    else if (k === 'deepen-since') n.since = since(v);
    else if (k === 'deepen-relative') n.relative = true;
    else if (k === 'include-tag') n.includeTag = true;
    else if (k === 'filter') throw new ProtocolError('filter feature not supported');
    else if (k === 'deepen-not' || k === 'want-ref' || k === 'packfile-uris') throw new ProtocolError(`unexpected line: '${a}'`);
  }
  checkWants(repo, n.wants, source);
  const common = n.haves.filter((h) => repo.has(h));
  const sections: Uint8Array[] = [];
  if (!n.done) {
    sections.push(pkt('acknowledgments\n'));
    if (common.length === 0) sections.push(pkt('NAK\n'));
    for (const c of common) sections.push(pkt(`ACK ${c}\n`));
    // Ready once something is in common (or there is nothing to negotiate); else the client sends more haves.
    if (common.length === 0 && n.haves.length > 0) return concat([...sections, FLUSH]);
    sections.push(pkt('ready\n'), DELIM);
  }
  const selection = await select(repo, n, common);
  if (n.depth !== undefined || n.since !== undefined || n.shallow.length > 0) {
    sections.push(pkt('shallow-info\n'));
    for (const s of selection.shallow) sections.push(pkt(`shallow ${s}\n`));
    for (const s of selection.unshallow) sections.push(pkt(`unshallow ${s}\n`));
    sections.push(DELIM);
  }
  if (n.includeTag) await includeTags(repo, source, selection.objects);
  const pack = await packOf(repo, selection.objects, selection.pack);
  return framed([...sections, pkt('packfile\n')], pack.chunks, pack.length, [FLUSH]);
}

/** Protocol v0 in one round (the client sends its wants, haves and `done` together). */
async function fetchV0(repo: RepositoryObjects, source: Refs, packets: Packet[]): Promise<Uint8Array> {
  const n: Negotiation = { wants: [], haves: [], done: false, shallow: [], includeTag: false };
  let caps: string[] = [];
  for (const p of packets) {
    const line = text(p);
    if (line === null) continue;
    const [k, v = '', ...more] = line.split(' ');
    if (k === 'want') {
      if (n.wants.length === 0) caps = more;
      n.wants.push(v);
    } else if (k === 'have') n.haves.push(v);
    else if (k === 'done') n.done = true;
    else if (k === 'shallow') n.shallow.push(v);
    else if (k === 'deepen') n.depth = deepen(v);
    else if (k === 'deepen-since') n.since = since(v);
    else if (k === 'deepen-relative') n.relative = true;
    else if (k === 'filter' || k === 'deepen-not') throw new ProtocolError(`unexpected line: '${line}'`);
  }
  checkWants(repo, n.wants, source);
  n.includeTag = caps.includes('include-tag');
  // In v0, a relative deepening is a capability of the first want, not a line of its own.
  if (caps.includes('deepen-relative')) n.relative = true;
  const common = n.haves.filter((h) => repo.has(h));
  const out: Uint8Array[] = [];
  const selection = await select(repo, n, common);
  if (n.depth !== undefined || n.since !== undefined) {
    for (const s of selection.shallow) out.push(pkt(`shallow ${s}\n`));
    for (const s of selection.unshallow) out.push(pkt(`unshallow ${s}\n`));
    out.push(FLUSH);
  }
  // Only the wants (and `deepen`): in stateless RPC the client first reads its shallow list alone.
  const firstFlush = packets.findIndex((p) => p.kind === 'flush');
  if (!n.done && (firstFlush < 0 || firstFlush === packets.length - 1)) return concat(out);
  if (!n.done) {
    // A round of haves (stateless, so the client repeats what was common before): multi_ack_detailed
    // acknowledges each common commit, and says `ready` once there is one; git then sends `done`.
    const detailed = caps.includes('multi_ack_detailed');
    for (const c of common) out.push(pkt(`ACK ${c} ${detailed ? 'common' : 'continue'}\n`));
    if (common.length > 0 && detailed) out.push(pkt(`ACK ${common[common.length - 1]} ready\n`));
    out.push(pkt('NAK\n'));
    return concat(out);
  }
  out.push(pkt(common.length > 0 ? `ACK ${common[common.length - 1]}\n` : 'NAK\n'));
  if (n.includeTag) await includeTags(repo, source, selection.objects);
  const pack = await packOf(repo, selection.objects, selection.pack);
  if (caps.includes('side-band-64k')) return framed(out, pack.chunks, pack.length, [FLUSH]);
  if (caps.includes('side-band')) return framed(out, pack.chunks, pack.length, [FLUSH], 995);
  return concat([...out, ...pack.chunks]);
}

async function select(repo: RepositoryObjects, n: Negotiation, common: string[]) {
  try {
    return await selectObjects(repo, { wants: n.wants, haves: common, depth: n.depth, since: n.since, relative: n.relative, clientShallow: n.shallow });
  } catch (e) {
    if (e instanceof NothingSelected) throw new ProtocolError('no commits selected for shallow requests');
    throw e;
  }
}

/** `include-tag`: annotated tags that point at a commit being sent go too. */
async function includeTags(repo: RepositoryObjects, source: Refs, objects: { oid: string; type: string }[]): Promise<void> {
  const sent = new Set(objects.map((o) => o.oid));
  for (const r of source().refs) {
    if (r.peeled && sent.has(r.peeled) && !sent.has(r.oid) && repo.has(r.oid)) {
      sent.add(r.oid);
      objects.push({ oid: r.oid, type: 'tag' });
    }
  }
}

/**
 * A pack of the objects, each entry as the object store keeps it (`packedObject`): a pushed
 * object goes as git itself compressed it, a delta too when its base is in the same pack (and the
 * chain is no longer than git's default depth); any other whole.
 */
async function packOf(repo: RepositoryObjects, objects: readonly { oid: string }[], whole?: StoredPack): Promise<{ chunks: Uint8Array[]; length: number }> {
  // Exactly the objects of a pack a push left (a clone after it): that pack, as it is. The walk
  // says so when it went over that pack alone (and nothing was added since: `include-tag`).
  const kept = whole && whole.oids.length === objects.length ? (repo.sendsAsIs(whole) ? whole : null) : repo.keptPackOf(objects.map((o) => o.oid));
  if (kept) return { chunks: [kept.bytes], length: kept.bytes.length };
  const packed = new Map<string, PackedObject>();
  for (const o of objects) packed.set(o.oid, await repo.packedObject(o.oid));
  for (const oid of deltasToSendWhole(packed)) packed.set(oid, await repo.packedWhole(oid));
  const pack = await writePack(objects.map((o) => ({ oid: o.oid, packed: packed.get(o.oid)! })));
  return { chunks: [pack], length: pack.length };
}
