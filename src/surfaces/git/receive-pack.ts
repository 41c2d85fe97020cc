// git-receive-pack over smart HTTP: the ref advertisement, then the commands, the push options
// and the pack of a push, and the report git reads back (report-status, side-band). What the
// push does is the repository's family's (its checks and its one change of the world): the
// surface hands it the commands and the pack, and reports its outcome, with its messages on
// side-band 2 (git prints them as `remote: ...`).
import { concat, FLUSH, PktLineError, pkt, readPackets, sideband, text } from '../../git/pktline.js';
import { isHiddenRef, type Command, type Outcome } from '../../git/transfer.js';
import { v0Lines, AGENT, type Refs } from './upload-pack.js';

const CAPS = `report-status delete-refs side-band-64k quiet atomic ofs-delta push-options object-format=sha1 ${AGENT}`;

/** `info/refs?service=git-receive-pack`. */
export function receivePackAdvertisement(source: Refs): Uint8Array {
  // Gitaly's receive.hideRefs: GitLab's own ref spaces (merge request heads...) are not a pusher's to see.
  const refs = source().refs.filter((r) => r.name !== 'HEAD' && !isHiddenRef(r.name));
  return concat([pkt('# service=git-receive-pack\n'), FLUSH, ...v0Lines(refs.map(({ name, oid }) => ({ name, oid })), CAPS), FLUSH]);
}

/** How the repository's family applies a push: its options, its commands and its pack. */
export type Apply = (pushOptions: readonly string[], commands: Command[], pack: Uint8Array, atomic: boolean) => Promise<Outcome>;

/** `POST git-receive-pack`. */
export async function receivePack(body: Uint8Array, apply: Apply): Promise<Uint8Array> {
  try {
    return await receive(body, apply);
  } catch (e) {
    if (e instanceof PktLineError) return concat([pkt(`ERR protocol error: ${e.message}\n`), FLUSH]);
    throw e;
  }
}

async function receive(body: Uint8Array, apply: Apply): Promise<Uint8Array> {
  const first = readPackets(body, 0, true);
  const commands: Command[] = [];
  let caps: string[] = [];
  for (const p of first.packets) {
    let line = text(p);
    if (line === null) continue;
    const nul = line.indexOf('\0');
    if (nul >= 0) {
      caps = line.slice(nul + 1).split(' ');
      line = line.slice(0, nul);
    }
    const [old = '', nw = '', ref = ''] = line.split(' ');
    if (!/^[0-9a-f]{40}$/.test(old) || !/^[0-9a-f]{40}$/.test(nw) || ref === '') return concat([pkt(`ERR protocol error: expected old/new/ref, got '${line}'\n`), FLUSH]);
    commands.push({ old, new: nw, ref });
  }
  let at = first.end;
  // Push options (`git push -o`): those of merge requests act after the push; the others (ci.*) are ignored, as the emulator runs no CI.
  const pushOptions: string[] = [];
  if (caps.includes('push-options') && at < body.length) {
    const options = readPackets(body, at, true);
    for (const p of options.packets) {
      const line = text(p);
      if (line !== null) pushOptions.push(line.replace(/\n$/, ''));
    }
    at = options.end;
  }
  if (commands.length === 0) return new Uint8Array();
  const outcome = await apply(pushOptions, commands, body.subarray(at), caps.includes('atomic'));
  return respond(outcome, commands, caps);
}

function respond(o: Outcome, commands: Command[], caps: string[]): Uint8Array {
  const report = caps.includes('report-status')
    ? concat([pkt(`${o.unpack}\n`), ...commands.map((cmd) => pkt(o.results.get(cmd.ref) ? `ng ${cmd.ref} ${o.results.get(cmd.ref)}\n` : `ok ${cmd.ref}\n`)), FLUSH])
    : new Uint8Array();
  if (!caps.includes('side-band-64k')) return report;
  // The hook's messages are errors, not progress: `quiet` keeps them.
  const messages = o.messages.length > 0 ? sideband(2, new TextEncoder().encode(o.messages.join(''))) : [];
  return concat([...messages, ...sideband(1, report), FLUSH]);
}
