// The chat's suggested questions live in core/content/chat.ts with the rest of the firm's content
// (the content document edits them); re-exported here for the widget.
export { suggestedQuestionGroups, suggestedQuestions } from '#core/content/chat';
