// The labels family's part of the fixture format: the labels of a group or a project.
import { arrayOf, nullable, num, object, opt, str } from '../../core/schema.js';

export const labelSchema = object({ name: str, color: opt(str), description: opt(str), priority: opt(nullable(num)) });

export const labelsSchema = object({ labels: opt(arrayOf(labelSchema)) });
