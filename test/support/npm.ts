// The npm a person runs, not one a dependency put in node_modules/.bin: semantic-release brings
// npm 10 along, and `npm test` puts node_modules/.bin first on PATH, so a bare `npm` in a test
// would be that one.
import { delimiter } from 'node:path';

/** PATH without any node_modules/.bin. */
export function userPath(env: NodeJS.ProcessEnv = process.env): string {
  return (env.PATH ?? '').split(delimiter).filter((p) => !/[\\/]node_modules[\\/]\.bin$/.test(p)).join(delimiter);
}
