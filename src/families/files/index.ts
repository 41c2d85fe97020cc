// Repository files: get, raw, blame, create, update, delete; the tree, and blobs by id.
import { defineFamily, type Family } from '../define.js';
import { fileRoutes } from './routes.js';
import { treeRoutes } from './tree.js';

export const files: Family = defineFamily({ name: 'files', routes: [...fileRoutes, ...treeRoutes] });
