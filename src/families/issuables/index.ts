// What issues, merge requests and epics share (the issuables): subscriptions, to-dos, award
// emoji and participants, resource events and their routes, system notes, time tracking, task
// counts, and quick actions. It knows no kind of issuable itself: the family that owns a kind
// registers it (registerIssuable, registerSocial) and declares its routes from the factories
// here (socialRoutes, eventRoutes).
import { defineFamily, type Family } from '../define.js';
import { loadDates } from './dates.js';
import { loadEmojiNames } from './emoji.js';
import { todoRoutes } from './social-routes.js';
import { emptyIssuablesSlice, type IssuablesSlice } from './store.js';
import { todoSubscribers } from './todos.js';

declare module '../world.js' {
  interface Slices extends IssuablesSlice {}
}

export const issuables: Family<IssuablesSlice> = defineFamily({
  name: 'issuables',
  load: async () => {
    await Promise.all([loadDates(), loadEmojiNames()]);
  },
  state: emptyIssuablesSlice,
  routes: todoRoutes,
  on: todoSubscribers,
});

export type { IssuablesSlice, Awardable } from './store.js';
export type { AwardableType, AwardEmoji, SocialTarget, SocialType, Todo } from './records.js';
export { parseIid, registerIssuable, registerSocial, type IssuableKind, type IssuableTarget, type IssuableType, type SocialKind, type SocialRecord } from './kinds.js';
export { dropAwards } from './store.js';
export { isEmojiName, normalizeEmojiName } from './emoji.js';
export { applySocialUpdates, awardEmoji, countAwards, isSubscribed, reacted, socialTarget } from './social.js';
export { awardEmojiEntity } from './social-entity.js';
export { awardableRoutes, renderTodo, socialRoutes } from './social-routes.js';
export { markTodo, mentionedUserIds, mentionTodos } from './social.js';
export { registerTodoKind, type TodoKind } from './kinds.js';
export { emitIssuableChange } from './emit.js';
export { mentionedUsernames, splitCode } from './mentions.js';
export { socialKind } from './kinds.js';
export { dropEvents, eventsOf, recordEvent, recordLabelChange, recordMilestoneChange, type EventableType, type EventKind, type ResourceEvent } from './events.js';
export { eventableId, eventRoutes, type Eventable, type IterationRender } from './event-routes.js';
export { assigneesBody, dueDateBody, estimateBody, systemNote, timeSpentBody, titleChangeBody, toSentence, type SpentChange } from './system-notes.js';
export { formatDuration, parseDuration } from './duration.js';
export { castDateLike, chronicDate } from './dates.js';
export { taskCounts, timeStats } from './entity.js';
export { issueMilestone, milestoneOf, milestoneOwners } from './milestones.js';
export { badEstimate, spentInvalid } from './errors.js';
export { milestoneIdByTitle } from './quick-actions.js';
export { extractUsers } from './command-args.js';
export { fixtureMilestoneId, fixtureTime } from './fixture.js';
export {
  defineCommand, labelIdsAfter, spentOf, type Command, type CommandContext, type CommandFacts, type CommandKind, type CommandOptions, type GitAccess, type Updates,
} from './command-model.js';
export { interpretCommands, interpretDescription, interpretNoteCommands, type Interpretation, type NoteCommands } from './interpreter.js';
export { canReadInternalNotes, isDiscussionLocked, isIssuableMember, mentionerReadable, touchIssuable } from './noteables.js';
export { findTodo, markTodoDone } from './social.js';
