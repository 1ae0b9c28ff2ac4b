// Strings of /admin/leaderboard: the reviewer ranking, the review
// statistics, one reviewer's averages and the review settings.
const ordinals: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
const plural = new Intl.PluralRules('en', { type: 'ordinal' });

export const leaderboard = {
  title: 'Reviewer leaderboard',
  lede: 'Who has reviewed the most applications, how the scores add up, and how reviewing works.',
  // ordinal: 1 → "1st", 2 → "2nd", 11 → "11th".
  ordinal: (n: number) => `${n}${ordinals[plural.select(n)] ?? 'th'}`,
  joint: (rank: string) => `Joint ${rank}`,
  reviews: (count: string, one: boolean) => `${count} ${one ? 'review' : 'reviews'}`,
  unnamed: 'No name given',
  podium: {
    title: 'Top reviewers',
  },
  ranking: {
    title: 'Ranking',
    caption: 'Reviewers ranked by number of reviews',
    filter: 'Search reviewers',
    filterHint: 'Part of a name or email address.',
    clear: 'Clear search',
    count: (shown: string, total: string, one: boolean) => `Showing ${shown} of ${total} ${one ? 'reviewer' : 'reviewers'}`,
    noMatch: (q: string) => `No reviewer matches “${q}”.`,
    noMatchHint: 'Check the spelling or clear the search to see everyone.',
    columns: { rank: 'Rank', name: 'Name', email: 'Email', reviews: 'Reviews', averages: 'Averages' },
    show: (name: string) => `Show averages for ${name}`,
    showShort: 'Show averages',
  },
  empty: {
    title: 'Nobody has reviewed yet',
    body: 'The ranking fills in as admins score applications. Reviewers start from the review page.',
    link: 'Go to Review applications',
  },
  failed: {
    leaderboard: 'The ranking could not be loaded. The statistics below are current.',
    statistics: 'The statistics could not be loaded. The ranking above is current.',
    retry: 'Try again',
  },
  statistics: {
    title: 'Statistics',
    applications: 'Submitted applications',
    reviews: 'Reviews',
    reviewers: 'Reviewers',
    perApplication: 'Average reviews per application',
    averagesTitle: 'Average scores',
    resume: 'Resume',
    links: 'Links',
    q1: 'Question 1',
    q2: 'Question 2',
    outOf: (value: string, max: string) => `${value} out of ${max}`,
  },
  reviewer: {
    title: (name: string) => `Averages for ${name}`,
    unknown: 'this reviewer',
    close: 'Close averages',
    loading: 'Loading the averages\u2026',
    reviews: 'Reviews given',
    mean: 'Mean total',
    spread: 'Spread of totals (standard deviation)',
    none: 'This reviewer has not reviewed any application yet.',
  },
  settings: {
    title: 'Review settings',
    lede: 'These apply to every reviewer at once.',
    blind: 'Blind review',
    blindHint:
      'Reviewers do not see who the applicant is (email, name, team, age, gender, ethnicity, country, university), only what they score.',
    cap: 'Review cap',
    capHint: 'An application with this many reviews leaves the review queue. Leave empty for no cap.',
    capInvalid: 'Enter the review cap as a whole number of 1 or more, or leave it empty for no cap',
    save: 'Save settings',
    saved: 'Review settings saved',
    unchanged: 'Nothing changed: the settings were already these',
    historyTitle: 'Change history',
    historyCaption: 'Changes to the review settings, newest first',
    historyEmpty: 'No one has changed the settings yet: blind review is off and there is no cap.',
    columns: { when: 'When', who: 'Who', blind: 'Blind review', cap: 'Review cap' },
    on: 'On',
    off: 'Off',
    noCap: 'No cap',
    gone: 'A deleted account',
  },
} as const;
