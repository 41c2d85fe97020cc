// What the group routes answer when a rule refuses (lib/api/groups.rb).
import { messageError } from '../../core/errors.js';
import type { Errors } from './rules.js';

/** ActiveModel errors as Ruby prints a Hash: `{:path=>["has already been taken"]}`. */
function rubyHash(errors: Errors): string {
  const inner = Object.entries(errors)
    .map(([k, v]) => `:${k}=>[${v.map((m) => JSON.stringify(m)).join(', ')}]`)
    .join(', ');
  return `{${inner}}`;
}

/** `render_api_error!("Failed to save group #{group.errors.messages}")` after Groups::CreateService. */
export const groupNotSaved = (errors: Errors) => messageError(400, `Failed to save group ${rubyHash(errors)}`);
