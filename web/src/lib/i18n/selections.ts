// Strings of /admin/applications/review: the exec-hiring selections a VP
// (their subteam's) or a President (every subteam's) reviews.
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

export const selections = {
  title: 'Selections',
  lede: 'Applicants for exec positions in your scope, with their answers. Move each selection through review; a President makes the offers and rejections.',
  ledeVP: (subteam: string) => `Applicants for ${subteam} positions, with their answers. Move each selection through review; the President makes the offers and rejections.`,
  filters: {
    title: 'Filter selections',
    search: 'Search by name or email',
    searchHint: 'Results update as you type; press Enter to search at once.',
    searchButton: 'Search',
    status: 'Status',
    anyStatus: 'Any status',
    position: 'Position',
    anyPosition: 'Any position',
    pageSize: 'Selections per page',
  },
  // The status names as applicants and execs know them.
  status: {
    in_review: 'In Review',
    interviewing: 'Interviewing',
    wanted: 'Wanted',
    not_wanted: 'Not Wanted',
    offer_sent: 'Offer Sent',
    accepted_offer: 'Accepted Offer',
    declined_offer: 'Declined Offer',
    rejection_sent: 'Rejection Sent',
  } as Record<string, string>,
  positionOption: (title: string, subteam: string) => `${title} (${subteam})`,
  count: (n: string, count: number) => `${n} ${plural(count, 'selection', 'selections')}`,
  item: {
    heading: (name: string, position: string) => `${name} — ${position}`,
    noName: 'No name given',
    subteam: 'Subteam',
    email: 'Email',
    current: 'Current status',
    updated: 'Last change',
    answers: 'Answers',
    noAnswers: 'No written answers for this position.',
    answersFor: (name: string) => `Answers of ${name}`,
    details: 'Application details',
    resume: 'Download résumé',
    of: (name: string) => ` of ${name}`,
    noResume: 'No résumé uploaded.',
  },
  move: {
    label: 'New status',
    hint: 'Only the moves you may make from the current status are offered.',
    choose: 'Choose a status',
    submit: 'Change status',
    none: 'You cannot move this selection from its current status.',
    missing: 'Choose the new status',
    done: (name: string, status: string) => `${name} is now ${status}.`,
    refused: (from: string, to: string) => `This selection cannot move from ${from} to ${to}. Its status has been updated below; choose again.`,
    forbidden: 'You may not make this change.',
    gone: 'This selection is no longer in your scope. The list has been refreshed.',
  },
  empty: {
    title: 'No selections yet',
    body: 'When applicants choose a position in your scope and submit their application, their selections appear here.',
  },
  noMatch: {
    title: 'No selections match',
    body: 'Try another name or email, or show every status and position.',
    clear: 'Clear the filters',
  },
};
