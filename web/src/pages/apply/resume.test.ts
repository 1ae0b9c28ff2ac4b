import { describe, expect, it } from 'vitest';
import { apply } from '$lib/i18n/apply';
import { resumeMaxBytes, resumeProblem } from './resume';

const pdf = 'application/pdf';
const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('resumeProblem', () => {
  it('accepts PDF, DOC and DOCX up to 10 MB', () => {
    expect(resumeProblem({ name: 'cv.pdf', type: pdf, size: 1000 })).toBeNull();
    expect(resumeProblem({ name: 'CV.DOCX', type: docx, size: resumeMaxBytes })).toBeNull();
    expect(resumeProblem({ name: 'cv.doc', type: '', size: 10 })).toBeNull();
  });
  it('refuses other types by extension or reported type', () => {
    expect(resumeProblem({ name: 'cv.png', type: 'image/png', size: 10 })).toBe(apply.resume.wrongType);
    expect(resumeProblem({ name: 'cv.pdf', type: 'image/png', size: 10 })).toBe(apply.resume.wrongType);
    expect(resumeProblem({ name: 'cv', type: pdf, size: 10 })).toBe(apply.resume.wrongType);
  });
  it('refuses empty and too large files', () => {
    expect(resumeProblem({ name: 'cv.pdf', type: pdf, size: 0 })).toBe(apply.resume.empty);
    expect(resumeProblem({ name: 'cv.pdf', type: pdf, size: resumeMaxBytes + 1 })).toBe(apply.resume.tooLarge);
  });
});
