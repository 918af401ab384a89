// The newsletter's door (docs/architecture.md, "Doors and the floor"): everything outside
// worker/services/newsletter/ imports the domain from here. Use cases answer with a result the
// route maps to a status; the domain builds its own e-mails (emails.ts, template.ts) and hands the
// cron its jobs and prunes (jobs.ts).

// Sign-up, confirmation and unsubscribe (the public routes).
export { signUp, confirmSubscription, unsubscribe, checkUnsubscribeToken, type SignUpResult, type LinkOutcome } from './subscriptions';

// Subscribers (the admin's screen).
export { listSubscribers, searchSubscribers, subscriberCounts, type SubscriberStatus } from './subscriber-list';
export { resendConfirmation, type ResendOutcome } from './confirmations';
export { eraseSubscriber } from './list-hygiene';
export {
  confirmConsent,
  createImport,
  importStatus,
  runConfirmedImport,
  stageRows,
  type ConfirmImportResult,
  type RunImportResult,
  type StageResult,
} from './subscriber-import';

// Sending: now (the admin's buttons), a test to one address, the editor's preview, the scheduler.
export { sendNewsletterNow, sendComposedNewsletter, type SendNowResult } from './send-now';
export { sendTestNewsletter, renderDraftPreview } from './test-send';
export { generateNewsletter, startingDraft } from './ai-preview';
export { currentPeriod, schedulerState, setSchedulerRunning } from './scheduler';
export { listSentNewsletters } from './store';

// Drafts and scheduled issues.
export { cancelScheduledDraft, createDraft, deleteDraft, firmWhen, getDraft, listDrafts, scheduleDraftFor, toDraft, updateDraft } from './drafts';

// Reports, click tracking, the public archive.
export { newsletterReport, newsletterStats } from './report';
export { clickTrackingSetting, setClickTracking, followClick } from './click-tracking';
export { archivedIssue, findArchivedIssue, issueDescription, listArchivedIssues } from './archive';

// The cron: its jobs (import confirmations, then the newsletter pass) and its prunes.
export { prunes, importConfirmationsJob, newsletterJob } from './jobs';
