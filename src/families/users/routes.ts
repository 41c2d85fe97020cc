// GET /user: the caller (lib/api/users.rb, resource :user).
import { currentUser } from './entity.js';
import { json } from '../../http/route.js';
import { route } from '../define.js';

export const userRoutes = [
  route({
    method: 'GET',
    path: '/user',
    auth: 'user',
    scopes: ['read_user'],
    handler: (ctx) => json(currentUser(ctx.user!, ctx, ctx.now(), ctx.user!.admin)),
  }),
];
