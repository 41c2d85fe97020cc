// What the labels routes answer when a rule refuses (lib/api/labels.rb, helpers/labels_helpers.rb).
import { messageError, notFound } from '../../core/errors.js';

export const labelExists = () => messageError(409, 'Label already exists');
export const labelNotFound = () => notFound('Label');
