// lib/api/sidekiq_metrics.rb: administrators read the queues, processes and job counts of the
// background work (see metrics.ts for what they are here).
import { json } from '../../http/route.js';
import { route } from '../define.js';
import { jobStats, processMetrics, queueMetrics } from './metrics.js';

export const sidekiqRoutes = [
  route({
    method: 'GET', path: '/sidekiq/queue_metrics', auth: 'admin',
    handler: (ctx) => json({ queues: queueMetrics(ctx.state, ctx.now()) }),
  }),
  route({
    method: 'GET', path: '/sidekiq/process_metrics', auth: 'admin',
    handler: (ctx) => json({ processes: processMetrics(ctx.state, new URL(ctx.webBase).hostname, ctx.now()) }),
  }),
  route({
    method: 'GET', path: '/sidekiq/job_stats', auth: 'admin',
    handler: (ctx) => json({ jobs: jobStats(ctx.state, ctx.now()) }),
  }),
  route({
    method: 'GET', path: '/sidekiq/compound_metrics', auth: 'admin',
    handler: (ctx) =>
      json({
        queues: queueMetrics(ctx.state, ctx.now()),
        processes: processMetrics(ctx.state, new URL(ctx.webBase).hostname, ctx.now()),
        jobs: jobStats(ctx.state, ctx.now()),
      }),
  }),
];
