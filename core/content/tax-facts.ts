// docs/product.md §1.3: the ten 'Did You Know' facts on the Resources page (2025 tax year figures).

/** The tax year the facts below state (the content document edits both together). */
export const taxFactsYear = 2025;

export const taxFacts: readonly string[] = [
  'The IRS standard mileage rate for business use of a car is 70 cents per mile in 2025, up from 67 cents in 2024.',
  'Taxpayers aged 65 and older can claim an additional standard deduction in 2025: $2,050 if single or head of household, or $1,650 for each eligible spouse if married.',
  'The 2025 standard deduction is $15,000 for single filers and $30,000 for married couples filing jointly.',
  'You can contribute up to $23,500 to a 401(k) in 2025, plus a $7,500 catch-up contribution if you are 50 or older.',
  'The 2025 IRA contribution limit is $7,000, or $8,000 if you are 50 or older.',
  'Pennsylvania taxes personal income at a flat 3.07%, and most Pennsylvania municipalities and school districts levy a separate local earned income tax.',
  'Pennsylvania does not tax most retirement income, such as Social Security, pensions and IRA distributions, once you have reached retirement age.',
  'The annual gift tax exclusion is $19,000 per recipient in 2025, so a married couple can give $38,000 to each person without filing a gift tax return.',
  'Filing an extension gives you until October 15 to file your return, but not to pay: tax owed is still due by the April deadline.',
  'The IRS issues most refunds for e-filed returns with direct deposit in less than 21 days.',
] as const;
