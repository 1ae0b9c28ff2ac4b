import { describe, expect, it } from 'vitest';
import { bodyOf, checkQuestion, offered, readOnlyReason, valuesOf, type Position, type Question } from './form';

const q: Question = {
  id: 'q1',
  prompt: 'Why design?',
  type: 'text',
  char_limit: 300,
  placeholder: 'A sentence',
  help_text: '',
  required: true,
  position_ids: ['p1'],
  editable: true,
};
const pos = (id: string, subteam: string): Position => ({
  id,
  subteam,
  title: id,
  term_id: 't',
  grants: 'exec',
  description: '',
  open: true,
  created_at: '',
  updated_at: '',
});

describe('question form', () => {
  it('round-trips a question through its values', () => {
    expect(bodyOf(valuesOf(q))).toEqual({
      prompt: 'Why design?',
      type: 'text',
      char_limit: 300,
      placeholder: 'A sentence',
      help_text: '',
      required: true,
      position_ids: ['p1'],
    });
  });
  it('starts a new question as an optional paragraph with no limit', () => {
    const v = valuesOf(null);
    expect(v.type).toBe('textarea');
    expect(bodyOf(v).char_limit).toBeNull();
  });
  it('checks the fields with the server rules', () => {
    const words = { required: { prompt: 'Enter the question' } };
    expect(checkQuestion({ ...valuesOf(null), prompt: ' ' }, words).prompt).toBe('Enter the question');
    expect(checkQuestion({ ...valuesOf(q), char_limit: '0' }, words).char_limit).toBeTruthy();
    expect(checkQuestion({ ...valuesOf(q), char_limit: '10001' }, words).char_limit).toBeTruthy();
    expect(checkQuestion({ ...valuesOf(q), char_limit: '2.5' }, words).char_limit).toBeTruthy();
    expect(checkQuestion({ ...valuesOf(q), placeholder: 'x'.repeat(501) }, words).placeholder).toBeTruthy();
    expect(checkQuestion(valuesOf(q), words)).toEqual({});
  });
  it('offers a VP their subteam and what the question already has', () => {
    const all = [pos('a', 'Design'), pos('b', 'Tech'), pos('c', 'Tech')];
    expect(offered(all, 'Design', ['c']).map((p) => p.id)).toEqual(['a', 'c']);
    expect(offered(all, null, []).length).toBe(3);
  });
  it('says why a question is read only', () => {
    expect(readOnlyReason(q)).toBeNull();
    expect(readOnlyReason({ ...q, editable: false, position_ids: [] })).toBe('general');
    expect(readOnlyReason({ ...q, editable: false })).toBe('otherSubteam');
  });
});
