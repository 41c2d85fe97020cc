// Webhooks off the request's path: creating an issue in a project with ten hooks attached (each
// taking issue events, an in-process MSW receiver answering them) against the same write in a
// project with none, in the same run. The answer's CPU time is counted (median of alternating
// rounds; a shared machine makes wall time noise). Outside the timed answer, each write's
// deliveries are sent and answered (`hooks.settled()`) before the next write.
//
// The ten deliveries are about nine times the write's own work (mostly MSW's: the request, its
// clone, the receiver's handler, the response), and the write that follows them starts on caches
// and a heap they have churned: back to back, it reads about 1.5x whether or not it has hooks of
// its own, as making the same ten receiver requests after each write in a project with no hooks
// shows. So the figure holds that constant: after each write in the project with no hooks, the
// bench sends the receiver the same ten requests (the bodies and headers the hooks sent), untimed,
// so both arms' writes start alike and differ only by what the write does with hooks attached.
// The back-to-back figure, without that, is printed beside it. Run with `npx tsx bench/hooks.ts`
// or `npm run bench -- hooks`. No test asserts on these numbers.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createEmulator, type Emulator } from '../src/index.js';
import { cpu, fmt, median } from './cpu-ratio.js';

const API = 'https://gitlab.example.com/api/v4';
const RECEIVER = 'https://receiver.example.com/hook';
const headers = { 'PRIVATE-TOKEN': 'root', 'Content-Type': 'application/json' };

async function world(hooks: number): Promise<Emulator> {
  const e = await createEmulator({
    fixture: {
      users: [{ username: 'root', admin: true, tokens: [{ token: 'root' }] }],
      groups: [{ path: 'acme' }],
      projects: [{ namespace: 'acme', path: 'app', creator: 'root' }],
    },
  });
  for (let i = 0; i < hooks; i++) {
    const res = await e.handle(new Request(`${API}/projects/acme%2Fapp/hooks`, { method: 'POST', headers, body: JSON.stringify({ url: `${RECEIVER}?n=${i}`, issues_events: true }) }));
    if (res.status !== 201) throw new Error(`hook answered ${res.status}`);
  }
  return e;
}

/** Requests a write's deliveries made: sent again by the project with no hooks, after its own writes. */
type Sent = { url: string; headers: Record<string, string>; body: string }[];

/**
 * CPU milliseconds per answered write (median). After each answer, untimed: its deliveries sent
 * and answered, and `control`'s requests sent and answered.
 */
async function writes(e: Emulator, n: number, control: Sent = []): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = cpu();
    const res = await e.handle(new Request(`${API}/projects/acme%2Fapp/issues`, { method: 'POST', headers, body: JSON.stringify({ title: `issue ${i}` }) }));
    times.push(cpu() - start);
    if (res.status !== 201) throw new Error(`write answered ${res.status}`);
    await res.text();
    await e.hooks.settled(); // the deliveries of this write, outside the timed answer
    await Promise.all(control.map((s) => fetch(s.url, { method: 'POST', headers: s.headers, body: s.body }).then((r) => r.text())));
  }
  return median(times);
}

/** Seven alternating rounds: the median ratio and its spread, and the last round's figures. */
async function rounds(none: Emulator, ten: Emulator, n: number, control: Sent) {
  const ratios: number[] = [];
  let a = 0;
  let b = 0;
  for (let round = 0; round < 7; round++) {
    a = await writes(none, n, control);
    b = await writes(ten, n);
    ratios.push(b / a);
  }
  return `${fmt(b)} ms with 10 hooks vs ${fmt(a)} ms with none -> median ${fmt(median(ratios), 2)}x (spread ${fmt(Math.min(...ratios), 2)}-${fmt(Math.max(...ratios), 2)}x`;
}

export async function benchHooks(n = 60): Promise<string[]> {
  const receiver = setupServer(http.post(RECEIVER, () => HttpResponse.json({ ok: true })));
  receiver.listen({ onUnhandledRequest: 'bypass' });
  try {
    const none = await world(0);
    const ten = await world(10);
    await writes(none, 20);
    await writes(ten, 20);
    const last = ten.hooks.deliveries({ event: 'Issue Hook' }).slice(-10);
    const control: Sent = last.map((d) => ({ url: d.url, headers: d.headers, body: d.body! }));
    const fair = await rounds(none, ten, n, control);
    const backToBack = await rounds(none, ten, n, []);
    await ten.hooks.settled();
    const sent = ten.hooks.deliveries({ state: 'sent' }).length;
    return [
      `hooks: POST /issues ${fair}; goal <= 1.2x), each arm's writes followed by the same ten receiver requests; ${sent} deliveries sent`,
      `hooks: back to back, the project with no hooks sending nothing between writes: ${backToBack})`,
    ];
  } finally {
    receiver.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await benchHooks(Number(process.argv[2]) || undefined)) console.log(line);
