// The browser's check of a resume before it is uploaded: the server's rule
// (package resume: PDF, DOC or DOCX, at most 10 MiB, resume.MaxSize), by
// extension and by the type the browser reports (none is accepted: some
// systems report none for Word files; the server reads the content).
import { apply } from '$lib/i18n/apply';

export const resumeAccept = '.pdf,.doc,.docx';
export const resumeMaxBytes = 10 * 1024 * 1024;

const types: ReadonlySet<string> = new Set([
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
]);

export function resumeProblem(file: { name: string; type: string; size: number }): string | null {
  const dot = file.name.lastIndexOf('.');
  const ext = dot < 0 ? '' : file.name.slice(dot).toLowerCase();
  if (!resumeAccept.split(',').includes(ext) || (file.type !== '' && !types.has(file.type))) return apply.resume.wrongType;
  if (file.size === 0) return apply.resume.empty;
  if (file.size > resumeMaxBytes) return apply.resume.tooLarge;
  return null;
}
