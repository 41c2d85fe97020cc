// The messages the users family answers itself (lib/api/users.rb, the users' services).
import { badRequest, conflict, forbidden, messageError, notFound } from '../../core/errors.js';

export const userNotFound = () => notFound('User');
export const emailTaken = () => conflict('Email has already been taken');
export const usernameTaken = () => conflict('Username has already been taken');
export const soleOwner = () => conflict('User cannot be removed while is the sole-owner of a group');
export const twoFactorNotEnabled = () => badRequest('Two-factor authentication is not enabled for this user');
export const twoFactorAdmin = () => forbidden('Two-factor authentication for admins cannot be disabled via the API. Use the Rails console');
export const blockSelf = () => forbidden('The API initiating user cannot be blocked by the API');
export const unblockDeactivated = () => forbidden('Deactivated users cannot be unblocked by the API');
export const activateBlocked = () => forbidden('A blocked user must be unblocked to be activated');
/** A service's refusal rendered with `render_api_error!(message, status)`. */
export const refused = (status: number, message: string) => messageError(status, message);
export const listForbidden = () => forbidden('Not authorized to access /api/v4/users');
export const notAuthorized = () => forbidden('Not authorized!');
