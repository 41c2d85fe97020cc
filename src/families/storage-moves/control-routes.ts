// The storage moves family's endpoints of the control API (`/-/emulator/moves/...`): watch the
// moves, choose how one fails, set each step's time (`emulator.moves` in TypeScript). Each body
// is checked before anything changes.
import { parseDuration } from '../../core/clock.js';
import { attempt, bodyChecker, checkBody, CONTROL_PREFIX, controlError, fields, must, nullable, oneOf, type Check, type ControlRoute } from '../../http/control-route.js';
import { json, noContent } from '../../http/route.js';
import type { Host } from '../define.js';
import { movesControl } from './control.js';
import type { ContainerType, MoveFailure, StorageMove } from './records.js';

const FAILURE = oneOf('copy', 'checksum', 'same_filesystem', 'cleanup');

/** The body of each storage moves control write, by endpoint. */
const CHECKS = {
  /** A failure chosen ahead for a container's next storage move (null: it succeeds). */
  move_failures: fields(
    {
      type: oneOf('project', 'snippet', 'group'),
      container: must((v) => (typeof v === 'string' && v !== '') || (Number.isInteger(v) && (v as number) > 0), 'an id or a full path'),
      failure: nullable(FAILURE),
    },
    ['type', 'container', 'failure'],
  ),
  /** A failure chosen for a scheduled storage move. */
  move_fail: fields({ failure: FAILURE }, ['failure']),
  /** Each storage move step's time on the clock. */
  move_step: fields(
    { step: must((v) => (typeof v === 'string' || typeof v === 'number') && attempt(() => parseDuration(v as string | number) > 0 || (() => { throw new Error(); })()), 'a duration above zero such as 30s or 2m, or milliseconds') },
    ['step'],
  ),
} satisfies Record<string, Check>;

const checked = bodyChecker(CHECKS);

/** A storage move as the control API shows it (more than the REST API: the chosen failure, the last change). */
const moveJson = (m: StorageMove) => ({
  type: m.type, id: m.id, container_id: m.containerId, state: m.state, source_storage_name: m.sourceStorage, destination_storage_name: m.destinationStorage,
  error_message: m.errorMessage, failure: m.failure, created_at: new Date(m.createdAt).toISOString(), updated_at: new Date(m.updatedAt).toISOString(),
});

export function movesControlRoutes(host: Host): ControlRoute[] {
  const moves = movesControl(host);
  return [
    { method: 'GET', path: '/moves', handler: () => json({ step_ms: moves.stepTime, shards: moves.shards(), moves: moves.list().map(moveJson) }) },
    {
      method: 'POST',
      path: '/moves/failures',
      handler: (ctx) => {
        const b = checked<{ type: ContainerType; container: string | number; failure: MoveFailure | null }>(ctx, 'move_failures');
        moves.failNext(b.type, b.container, b.failure);
        return noContent();
      },
    },
    {
      method: 'POST',
      path: '/moves/:type/:id/fail',
      handler: (ctx) => {
        const type = ctx.raw.type as ContainerType;
        const id = Number(ctx.raw.id);
        if (!['project', 'snippet', 'group'].includes(type) || !Number.isSafeInteger(id)) throw controlError(404, `unknown control endpoint ${CONTROL_PREFIX}/moves/${String(ctx.raw.type)}/${String(ctx.raw.id)}/fail`);
        // The body alone (the path's own parameters are merged into what was sent).
        const body = checkBody<{ failure: MoveFailure }>(Object.fromEntries(Object.entries(ctx.raw).filter(([k]) => k !== 'type' && k !== 'id')), CHECKS.move_fail, 'move_fail');
        moves.fail(type, id, body.failure);
        return json(moveJson(moves.get(type, id)!));
      },
    },
    {
      method: 'POST',
      path: '/moves/step',
      handler: (ctx) => {
        moves.setStepTime(checked<{ step: string | number }>(ctx, 'move_step').step);
        return json({ step_ms: moves.stepTime });
      },
    },
  ];
}
