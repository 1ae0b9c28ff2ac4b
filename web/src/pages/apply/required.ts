// What submission needs, mirrored from the Go rule requiredForSubmit in
// api/applications.go (steps 1 to 5). Everything else is optional; the
// question bank adds its own required questions (missingAnswers there).
export const requiredForSubmit = [
  'email',
  'phone',
  'discord',
  'tshirt_size',
  'age',
  'country',
  'university',
  'program',
  'year_of_study',
  'experience_level',
  'hackathons_attended',
  'resume',
  'q1_answer',
  'q2_answer',
  'coc_agreed',
  'info_share_authorized',
] as const;

const set: ReadonlySet<string> = new Set(requiredForSubmit);

export function isRequired(field: string): boolean {
  return set.has(field);
}
