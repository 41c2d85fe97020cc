// Sidekiq metrics: the background work of the instance, as GitLab's admin API reports it.
import { defineFamily, type Family } from '../define.js';
import { sidekiqRoutes } from './routes.js';

export const sidekiq: Family = defineFamily({ name: 'sidekiq', routes: sidekiqRoutes });
