import type { Prune } from '../platform/jobs';
import { expiredChatPurge } from './sessions';
import { pruneChatWindows } from './throttle';

// The chat domain's door (docs/architecture.md, "Doors and the floor"): the assistant's answers,
// whole or streamed, the hand-off to a person, the admin's transcripts and the chat's cleanup
// (docs/product.md §4; docs/decisions/0003-chat-assistant.md). Everything outside
// worker/services/chat/ imports it from here.

// POST /api/chat and POST /api/chat/handoff (worker/routes/chat.ts).
export { admitChatMessage, answerChat, streamChatReply, type ChatAdmission, type ChatMessageInput } from './conversation';
export { handOffChat, type HandoffResult } from './handoff';
export { CHAT_SESSION_FULL_MESSAGE, loadConversation, type ChatMessageRow, type ChatSessionRow } from './sessions';
// The admin's transcripts (worker/routes/admin/chat-sessions.ts).
export { searchChatSessions } from './transcripts';

/**
 * The chat's cleanup in the tick's one housekeeping batch (worker/services/platform/jobs.ts):
 * conversations past their retention with their messages (counted), and the throttle's ended windows.
 */
export const prunes: Prune[] = [
  { counts: 'chatConversations', statements: (db, at) => [...expiredChatPurge(db, at)] },
  { statements: (db, at) => [pruneChatWindows(db, at.getTime())] },
];
