// The contact domain's door (docs/architecture.md, "Doors and the floor"): the messages visitors
// send (the contact form, the chat hand-off), the firm's notification of them, and the admin
// inbox with its replies (docs/product.md §2 and §6.2). Everything outside
// worker/services/contact/ imports it from here.

// Receiving a message: POST /api/contact, and the chat hand-off (worker/services/chat).
export { receiveContactMessage, submitContactForm, type ContactMessageInput, type ContactMessageLimited, type ReceivedContactMessage } from './receive';
// The inbox (worker/routes/admin/contact-messages.ts).
export { listContactMessages, searchContactMessages, type ContactMessageRow } from './messages';
export { archiveMessage, markMessageRead, messageReplies, replyToMessage, type MessageReplies, type ReplyResult } from './inbox';
export { REPLY_CAP_MESSAGE } from './replies';
