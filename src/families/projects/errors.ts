// What the project routes answer when a rule refuses (lib/api/projects.rb, app/finders/projects_finder.rb).
import { badRequest, validationFailed } from '../../core/errors.js';

/** Projects::CreateService: a namespace that is gone, or where the owner may not create projects. */
export const namespaceNotValid = () => validationFailed({ namespace: ['is not valid'] });

/** ProjectsFinder: an `updated_after`/`updated_before` filter needs `order_by=updated_at`. */
export const updatedAtNotPaired = () => badRequest('`updated_at` filter and `updated_at` sorting must be paired');
