// The storage-moves family's part of the fixture format: the shards, and a project's shard.
import { arrayOf, num, object, opt, str, union } from '../../core/schema.js';

export const storageSchema = object({
  /** The shards, in order: new repositories land on the first. Default: `default` and `storage2`, weight 100 each. */
  shards: opt(arrayOf(object({ name: str, weight: opt(num) }))),
  /** How long each step of a storage move takes on the emulator's clock: `30s`, `2m`, or milliseconds. Default 10 s. */
  move_step: opt(union(str, num)),
});
export const storageTopSchema = object({ storage: opt(storageSchema) });
export const storageProjectSchema = object({
  /** The shard the project's repositories start on (a name of `storage.shards`). */
  repository_storage: opt(str),
});
