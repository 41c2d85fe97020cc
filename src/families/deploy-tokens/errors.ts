// The deploy tokens API's own answers.
import { messageError, recordNotFound } from '../../core/errors.js';

/** `deploy_tokens.find`: ActiveRecord::RecordNotFound. */
export const deployTokenNotFound = () => recordNotFound();
/** `render_api_error!(result[:message], 400)`: the model's full messages as a sentence. */
export const invalidDeployToken = (sentence: string) => messageError(400, sentence);
