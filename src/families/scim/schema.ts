// The SCIM family's part of the fixture format: a group's SCIM token.
import { object, opt, str } from '../../core/schema.js';

export const scimGroupSchema = object({
  /** The group's SCIM token (its SAML SSO and SCIM are then configured), as an identity provider would hold it. */
  scim_token: opt(str),
});
