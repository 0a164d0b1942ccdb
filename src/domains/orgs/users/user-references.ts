import type { WriteScope } from '../../../bus/write.js';

/**
 * "Forget this user": each domain whose records belong to or name users (access credentials, notification
 * snoozes, ...) provides a cleaner, listed in the composition root (`deps.userReferences`, src/open-deps.ts), so
 * that deleting a user removes them everywhere in the delete's own transaction without the orgs domain importing
 * those domains. A cleaner runs in the writer's transaction, before the user's row goes, and announces each
 * record it changes with `w.change(...)`.
 */
export type UserReferenceCleaner = (w: WriteScope, userUuid: string) => Promise<void>;

declare module '../../../deps.js' {
  interface Deps {
    /** The cleaners that remove a deleted user from the records of other domains (credentials, snoozes, ...). */
    userReferences: readonly UserReferenceCleaner[];
  }
}
