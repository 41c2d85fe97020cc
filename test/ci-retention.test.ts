// Artifact retention as a state machine: for any schedule of job finishes, keeps, locks,
// deletions and clock advances, exactly the artifacts GitLab's rules keep are downloadable.
// The model: an artifact goes when it has expired while its pipeline is not locked (the latest
// successful pipeline of its ref, or locked by hand) and it was not kept; deleting a job's
// artifacts removes them at once; deleting a project's expires every one not locked or kept.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';

const HOUR = 3_600_000;
const REFS = ['main', 'dev'] as const;

const FIXTURE: Fixture = {
  users: [{ username: 'mai', tokens: [{ token: 'mai-token' }] }],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'mai', access_level: 'maintainer' }] }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private', repository: { files: { 'a.txt': 'a' }, branches: { dev: 'main' } } }],
};

type Op =
  | { kind: 'run'; ref: (typeof REFS)[number]; success: boolean; hours: number | null }
  | { kind: 'keep'; pick: number }
  | { kind: 'deleteJob'; pick: number }
  | { kind: 'deleteProject' }
  | { kind: 'lock'; pick: number; locked: boolean }
  | { kind: 'advance'; hours: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('run' as const), ref: fc.constantFrom(...REFS), success: fc.boolean(), hours: fc.option(fc.integer({ min: 1, max: 48 }), { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('keep' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteJob' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'deleteProject' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('lock' as const), pick: fc.nat(), locked: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 40 }) }) },
);

interface ModelPipeline {
  id: number;
  ref: string;
  locked: boolean;
}
interface ModelArtifact {
  jobId: number;
  pipeline: ModelPipeline;
  expireAt: number | null;
  kept: boolean;
  present: boolean;
}

async function downloadable(e: Emulator, jobId: number): Promise<boolean> {
  const res = await e.handle(new Request(`https://gitlab.example.com/api/v4/projects/acme%2Fapp/jobs/${jobId}/artifacts`, { headers: { 'PRIVATE-TOKEN': 'mai-token' } }));
  await res.arrayBuffer();
  if (res.status !== 200 && res.status !== 404) throw new Error(`unexpected ${res.status}`);
  return res.status === 200;
}

async function call(e: Emulator, method: string, path: string): Promise<number> {
  const res = await e.handle(new Request(`https://gitlab.example.com/api/v4/projects/acme%2Fapp${path}`, { method, headers: { 'PRIVATE-TOKEN': 'mai-token' } }));
  await res.arrayBuffer();
  return res.status;
}

describe('artifact retention', () => {
  it('keeps exactly what GitLab\'s rules keep, for any schedule', async () => {
    const base = await createEmulator({ fixture: FIXTURE, clock: { now: '2024-01-01T00:00:00Z', frozen: true } });
    const start = base.snapshot();
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        base.restore(start);
        base.clock.set('2024-01-01T00:00:00Z');
        const e = base;
        const ci = e.ci('acme/app');
        const artifacts: ModelArtifact[] = [];
        const latest = new Map<string, ModelPipeline>();
        const pipelines: ModelPipeline[] = [];
        const sweep = () => {
          const now = e.clock.now();
          for (const a of artifacts) if (a.present && a.expireAt !== null && a.expireAt <= now && !a.pipeline.locked) a.present = false;
        };
        for (const o of ops) {
          const now = e.clock.now();
          if (o.kind === 'run') {
            const p = ci.pipeline({ ref: o.ref });
            const job = ci.job(p.id, { name: 'build' });
            ci.finish(job.id, { status: o.success ? 'success' : 'failed', artifacts: { files: { 'x.txt': 'x' }, expireIn: o.hours === null ? 'never' : `${o.hours} hours` } });
            const mp: ModelPipeline = { id: p.id, ref: o.ref, locked: false };
            pipelines.push(mp);
            artifacts.push({ jobId: job.id, pipeline: mp, expireAt: o.hours === null ? null : now + o.hours * HOUR, kept: false, present: true });
            if (o.success) {
              const old = latest.get(o.ref);
              if (old && old.locked) old.locked = false;
              mp.locked = true;
              latest.set(o.ref, mp);
            }
          } else if (o.kind === 'keep' && artifacts.length) {
            const a = artifacts[o.pick % artifacts.length]!;
            const status = await call(e, 'POST', `/jobs/${a.jobId}/artifacts/keep`);
            expect(status).toBe(a.present ? 200 : 404);
            if (a.present) (a.kept = true), (a.expireAt = null);
          } else if (o.kind === 'deleteJob' && artifacts.length) {
            const a = artifacts[o.pick % artifacts.length]!;
            expect(await call(e, 'DELETE', `/jobs/${a.jobId}/artifacts`)).toBe(204);
            a.present = false;
          } else if (o.kind === 'deleteProject') {
            expect(await call(e, 'DELETE', '/artifacts')).toBe(202);
            for (const a of artifacts) if (a.present && !a.kept && !a.pipeline.locked) a.expireAt = now;
          } else if (o.kind === 'lock' && pipelines.length) {
            const p = pipelines[o.pick % pipelines.length]!;
            ci.lock(p.id, o.locked);
            p.locked = o.locked;
          } else if (o.kind === 'advance') {
            e.clock.advance(o.hours * HOUR);
          }
          // A request runs the cleanups due; then the model sweeps what they remove.
          await call(e, 'GET', '/jobs?per_page=1');
          sweep();
          for (const a of artifacts) expect(await downloadable(e, a.jobId), `job ${a.jobId} after ${JSON.stringify(o)}`).toBe(a.present);
        }
      }),
      { numRuns: 40 },
    );
  });
});
