// The CPU time of a push received in process (no git binary at the push, no socket): a pack of
// 1,000 commits and 5,000 files (`bench/git-clone.ts`'s history, packed by git), sent through
// `emulator.handle` to a new repository, then cloned back through `emulator.handle`.
// `npx tsx bench/git-push-cpu.ts <pack> <tip> [rounds]`: prints each round's CPU time.
import { readFileSync } from 'node:fs';
import { createEmulator } from '../src/index.js';

const [packFile, tip, roundsArg] = process.argv.slice(2);
const pack = readFileSync(packFile!);
const rounds = Number(roundsArg ?? 5);
const pkt = (s: string) => `${(s.length + 4).toString(16).padStart(4, '0')}${s}`;
const ZERO = '0'.repeat(40);
const auth = `Basic ${Buffer.from('bench:bench-token').toString('base64')}`;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const push: number[] = [];
const clone: number[] = [];
for (let r = 0; r < rounds; r++) {
  const e = await createEmulator({
    fixture: {
      users: [{ username: 'bench', admin: true, tokens: [{ token: 'bench-token', scopes: ['api'] }] }],
      projects: [{ namespace: 'bench', path: 'repo', creator: 'bench', visibility: 'public' }],
    },
  });
  const body = Buffer.concat([Buffer.from(pkt(`${ZERO} ${tip} refs/heads/main\0report-status\n`) + '0000'), pack]);
  let t = cpu();
  const res = await e.handle(new Request('https://gitlab.example.com/bench/repo.git/git-receive-pack', { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/x-git-receive-pack-request' }, body }));
  const text = await res.text();
  push.push(cpu() - t);
  if (!text.includes('ok refs/heads/main')) throw new Error(`push failed: ${text}`);
  t = cpu();
  const want = pkt(`want ${tip} ofs-delta no-progress\n`) + '0000' + pkt('done\n');
  const up = await e.handle(new Request('https://gitlab.example.com/bench/repo.git/git-upload-pack', { method: 'POST', headers: { 'Content-Type': 'application/x-git-upload-pack-request' }, body: want }));
  const bytes = new Uint8Array(await up.arrayBuffer());
  clone.push(cpu() - t);
  if (up.status !== 200 || bytes.length < 1000) throw new Error(`clone failed: ${up.status}`);
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`push CPU ms: median ${med(push).toFixed(0)} (${push.map((x) => x.toFixed(0)).join(', ')})`);
console.log(`first clone CPU ms: median ${med(clone).toFixed(0)} (${clone.map((x) => x.toFixed(0)).join(', ')})`);
