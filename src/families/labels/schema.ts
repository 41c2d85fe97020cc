// The labels family's part of the fixture format: the labels of a group or a project.
import { arrayOf, nullable, num, object, opt, str } from '../../core/schema.js';

export const labelSchema = object({
  name: str,
  /** `#rrggbb`; `#6699cc` when absent. */
  color: opt(str),
  description: opt(str),
  /** Projects only. */
  priority: opt(nullable(num)),
});

export const labelsSchema = object({ labels: opt(arrayOf(labelSchema)) });
