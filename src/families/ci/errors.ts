// What the CI routes answer when a rule refuses (lib/api/ci/*.rb, lib/api/helpers/variables_helpers.rb).
import { conflict, forbidden, notFound, validationFailed } from '../../core/errors.js';

export const variableNotFound = () => notFound('Variable');
export const instanceVariableNotFound = () => notFound('InstanceVariable');
export const multipleVariables = () => conflict("There are multiple variables with provided parameters. Please use 'filter[environment_scope]'");
export const variableInvalid = (errors: Record<string, string[]>) => validationFailed(errors);
export const jobNotFound = () => notFound('Job');
export const artifactsNotFound = () => notFound('Artifacts');
export const artifactsMetadataNotFound = () => notFound('Artifacts metadata');
export const pathNotFound = () => notFound('Path');
export const pipelineNotFound = () => notFound('Pipeline');
/** POST .../jobs/:job_id/retry on a job that cannot run again. */
export const jobNotRetryable = () => forbidden('Job is not retryable');
