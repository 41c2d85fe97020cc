// The epics family's part of the fixture format: epics and iterations of a group.
import { arrayOf, bool, object, oneOf, opt, str } from '../../core/schema.js';

export const epicSchema = object({
  title: str,
  description: opt(str),
  /** Username; the first administrator when absent. */
  author: opt(str),
  labels: opt(arrayOf(str)),
  state: opt(oneOf('opened', 'closed')),
  confidential: opt(bool),
  color: opt(str),
  start_date: opt(str),
  due_date: opt(str),
  /** The title of an epic of the same group given before this one. */
  parent: opt(str),
});

export const iterationSchema = object({ title: opt(str), description: opt(str), start_date: str, due_date: str });

export const epicsGroupSchema = object({ epics: opt(arrayOf(epicSchema)), iterations: opt(arrayOf(iterationSchema)) });
