// The storage-moves family's part of the fixture format: the shards, and a project's shard.
import { arrayOf, num, object, opt, str, union } from '../../core/schema.js';

export const storageTopSchema = object({
  storage: opt(object({ shards: opt(arrayOf(object({ name: str, weight: opt(num) }))), move_step: opt(union(str, num)) })),
});
export const storageProjectSchema = object({ repository_storage: opt(str) });
