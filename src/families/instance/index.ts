// The instance: version and metadata, and application settings.
import { defineFamily, type Family } from '../define.js';
import { instanceRoutes } from './routes.js';

export const instance: Family = defineFamily({ name: 'instance', routes: instanceRoutes });

export { GITLAB_VERSION, gitlabVersion, metadata } from './metadata.js';
export { applicationSettings } from './settings.js';
