// The messages of the storage-move endpoints (render_validation_error! of the move record).
import { validationFailed } from '../../core/errors.js';
import type { ContainerType } from './records.js';

export const storageNotInList = (field: 'source_storage_name' | 'destination_storage_name') => validationFailed({ [field]: ['is not included in the list'] });
/** container_repository_writable: the container is read-only (another move is in progress). */
export const containerReadOnly = (type: ContainerType) => validationFailed({ [type]: ['is read-only'] });
