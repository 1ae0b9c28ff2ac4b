// Strings about the hackathon's editions that several pages show: the
// application window in words (/apply, the home page) and the staff
// pages' edition switcher.
export const editions = {
  window: {
    opens: (name: string, date: string) => `Applications for ${name} open ${date}`,
    closed: (name: string, date: string) => `Applications for ${name} closed on ${date}`,
    closes: (date: string, fromNow: string) => `Closes ${date}, ${fromNow}`,
  },
  switcher: {
    label: 'Hackathon',
    hint: 'Show another year\u2019s hackathon.',
    current: (name: string) => `${name} (current)`,
    showing: (name: string) => `Showing ${name}.`,
    showingCurrent: (name: string) => `Showing ${name}, the current hackathon.`,
    notFound: 'There is no such hackathon. It may have been renamed, or the link is incomplete.',
    toCurrent: 'Show the current hackathon',
  },
} as const;
