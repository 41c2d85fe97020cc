// Webhooks off the request's path: creating an issue in a project with ten hooks attached (each
// taking issue events, an in-process MSW receiver answering them) against the same write in a
// project with none, in the same run. The answer's CPU time is counted (median of alternating
// rounds; a shared machine makes wall time noise); each write's deliveries happen after its answer and are waited for before the next. The request's
// own part is one record of the event (the hooks' ids), whatever the number of hooks; the
// delivery per hook is queued on a timer after the answer. In a CPU profile of 400 such writes
// the hooks' subscriber costs about 0.1 ms a write; the rest of the difference is garbage
// collection (four times as much with ten hooks: the deliveries' requests and responses), which
// lands in the next timed answer and which the process's CPU time counts. Run with `npx tsx bench/hooks.ts` or `npm run bench -- hooks`. No test asserts on these numbers.
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

/** CPU milliseconds per answered write (median), the deliveries of each run after it and outside the count. */
async function writes(e: Emulator, n: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = cpu();
    const res = await e.handle(new Request(`${API}/projects/acme%2Fapp/issues`, { method: 'POST', headers, body: JSON.stringify({ title: `issue ${i}` }) }));
    times.push(cpu() - start);
    if (res.status !== 201) throw new Error(`write answered ${res.status}`);
    await res.text();
    await e.hooks.settled(); // the deliveries of this write, outside the timed answer
  }
  return median(times);
}

export async function benchHooks(n = 60): Promise<string[]> {
  const receiver = setupServer(http.post(RECEIVER, () => HttpResponse.json({ ok: true })));
  receiver.listen({ onUnhandledRequest: 'bypass' });
  try {
    const none = await world(0);
    const ten = await world(10);
    await writes(none, 20);
    await writes(ten, 20);
    const ratios: number[] = [];
    let a = 0;
    let b = 0;
    for (let round = 0; round < 7; round++) {
      a = await writes(none, n);
      b = await writes(ten, n);
      ratios.push(b / a);
    }
    await ten.hooks.settled();
    const sent = ten.hooks.deliveries({ state: 'sent' }).length;
    return [
      `hooks: POST /issues ${fmt(b)} ms with 10 hooks vs ${fmt(a)} ms with none -> median ${fmt(median(ratios), 2)}x (spread ${fmt(Math.min(...ratios), 2)}-${fmt(Math.max(...ratios), 2)}x; goal <= 1.2x); ${sent} deliveries sent`,
    ];
  } finally {
    receiver.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await benchHooks(Number(process.argv[2]) || undefined)) console.log(line);
