// docs/product.md §4: twelve suggested questions in three groups of four. Pure data: the widget shows
// them (web/features/chat/suggested-questions.ts), the content document carries them
// (core/content/default-content.ts), and the worker tests check that the offline assistant answers
// each one with its key fact.

export const suggestedQuestionGroups = [
  {
    title: 'Tax Planning',
    questions: [
      'How much does an individual tax return cost?',
      'How can I lower my taxes this year?',
      'Can you help me respond to an IRS notice?',
      'Is the initial consultation free?',
    ],
  },
  {
    title: 'Business Advisory',
    questions: [
      'Can you help me start a new business?',
      'How much does a business tax return cost?',
      'What does an outsourced CFO do?',
      'Can you help set up QuickBooks for my business?',
    ],
  },
  {
    title: 'Bookkeeping',
    questions: [
      'How much does monthly bookkeeping cost?',
      'Do you offer payroll services?',
      'Can you file 1099 forms for my contractors?',
      'Can you prepare financial statements for my business?',
    ],
  },
] as const;

export const suggestedQuestions: readonly string[] = suggestedQuestionGroups.flatMap((group) => group.questions);
