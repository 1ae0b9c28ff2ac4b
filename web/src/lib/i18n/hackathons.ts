// Strings of /admin/hackathons: the hackathon's editions, their
// application windows, event dates and capacity.
type TimeField = 'applications_open_at' | 'applications_close_at' | 'starts_at' | 'ends_at';

const fieldNames = {
  name: 'Name',
  applications_open_at: 'Applications open',
  applications_close_at: 'Applications close',
  starts_at: 'Hackathon starts',
  ends_at: 'Hackathon ends',
  capacity: 'Capacity',
  announce: 'Announce the opening by email',
} as const;

// What must come after what, in a sentence about the later date.
const order: Record<TimeField, Partial<Record<TimeField, string>>> = {
  applications_open_at: {},
  applications_close_at: { applications_open_at: 'Applications must close after they open' },
  starts_at: {
    applications_open_at: 'The hackathon must start after applications open',
    applications_close_at: 'The hackathon cannot start before applications close',
  },
  ends_at: {
    applications_open_at: 'The hackathon must end after applications open',
    applications_close_at: 'The hackathon must end after applications close',
    starts_at: 'The hackathon must end after it starts',
  },
};

export const hackathons = {
  title: 'Hackathons',
  lede: 'The club runs its hackathon every year. Each year is a hackathon of its own, with its application window, its dates and its places. Applicants apply to the current hackathon, reviewers review its applications, and the staff pages show it unless you choose another.',
  create: 'Create a hackathon',
  zone: (zone: string) => `Times are shown in your time zone, ${zone}.`,
  caption: 'Hackathons, the latest first',
  columns: {
    name: 'Hackathon',
    applications: 'Applications',
    event: 'Event',
    capacity: 'Capacity',
    actions: 'Actions',
  },
  current: 'Current',
  phases: {
    upcoming: 'Applications not open yet',
    open: 'Applications open',
    closed: 'Applications closed',
    running: 'Under way',
    over: 'Over',
  },
  window: {
    range: (from: string, to: string) => `${from} to ${to}`,
    noClose: (from: string) => `From ${from}, no close date`,
  },
  event: {
    range: (from: string, to: string) => `${from} to ${to}`,
    from: (from: string) => `From ${from}`,
    until: (to: string) => `Until ${to}`,
    unset: 'Not set',
  },
  noLimit: 'No limit',
  announced: 'Opening announced by email',
  purge: {
    on: (date: string) => `Applications deleted on ${date}`,
    never: 'Applications kept: no end or close date to count from',
  },
  edit: 'Edit',
  makeCurrent: 'Make current',
  volunteersButton: 'Volunteers',
  volunteers: {
    title: (name: string) => `Volunteers of ${name}`,
    lede: 'Volunteers check people in at the door on the check-in page, and use nothing else. Admins can always check people in.',
    listLabel: 'Volunteers',
    none: 'No volunteers yet.',
    remove: 'Remove',
    addTitle: 'Add a volunteer',
    searchLabel: 'Find an account',
    searchHint: 'A name or part of an email address.',
    search: 'Search',
    resultsLabel: 'Accounts found',
    noMatch: 'No account matches.',
    already: 'Volunteers already',
    add: 'Add',
    found: (n: number) => (n === 1 ? '1 account found.' : `${n} accounts found.`),
    added: (who: string) => `${who} volunteers now.`,
    removed: (who: string) => `${who} no longer volunteers.`,
  },
  forEdition: (name: string) => ` ${name}`,
  form: {
    createTitle: 'Create a hackathon',
    editTitle: (name: string) => `Edit ${name}`,
    labels: fieldNames,
    nameHint: 'For example, HackMUN 2027',
    timesHint: (zone: string) => `In your time zone (${zone}), as year-month-day and 24-hour time, for example 2027-01-10 09:00.`,
    windowTitle: 'Application window',
    eventTitle: 'The event',
    eventHint: 'Optional. The hackathon may start the moment applications close.',
    closeHint: 'Optional. Without a close date applications stay open.',
    capacityHint: 'Optional. The places at the hackathon: offers and attending count against it. Leave blank for no limit.',
    announceHint:
      'Everyone who accepts marketing email hears when applications open, if this is the current hackathon by then and the opening is still ahead when you save.',
    rearm: 'Saving a changed window moves the reminder to unfinished drafts (48 hours before the close) and the summary at the close to the new times.',
    save: 'Save hackathon',
    createSave: 'Create hackathon',
    cancel: 'Cancel',
    nothing: 'Nothing has changed.',
    nameRequired: 'Enter a name for the hackathon',
    nameTooLong: (max: number) => `Name must be ${max} characters or fewer`,
    opensRequired: 'Enter when applications open',
    timeInvalid: (f: TimeField) => `${fieldNames[f]} must be a date and time, like 2027-01-10 09:00`,
    order: (later: TimeField, earlier: TimeField) => order[later][earlier] ?? `${fieldNames[later]} must be after ${fieldNames[earlier].toLowerCase()}`,
    closePast: 'Applications must close in the future',
    capacityInvalid: (max: number) => `Capacity must be a whole number from 1 to ${max.toLocaleString('en')}`,
    nameTaken: 'A hackathon with this name already exists. Choose another name.',
    notFound: 'This hackathon no longer exists. Close this form and reload the page.',
  },
  makeCurrentDialog: {
    title: (name: string) => `Make ${name} the current hackathon?`,
    body: (previous: string | null) =>
      `Applicants apply to the current hackathon, reviewers review its applications, and the staff pages show it unless someone chooses another.${previous ? ` ${previous} stops being the current hackathon; nothing of it is lost.` : ''}`,
    yes: 'Make current',
    cancel: 'Cancel',
  },
  created: (name: string) => `Created ${name}.`,
  saved: (name: string) => `Saved ${name}.`,
  madeCurrent: (name: string) => `${name} is now the current hackathon.`,
} as const;
