import { describe, expect, it } from 'vitest';
import { bodyOf, orphaned, questionChanges, questionsOf, valuesOf, type BankQuestion, type Position } from './positions';

const q = (id: string, position_ids: string[]): BankQuestion => ({
  id,
  prompt: `prompt ${id}`,
  type: 'textarea',
  char_limit: null,
  placeholder: '',
  help_text: '',
  required: false,
  position_ids,
  editable: true,
});
const bank = [q('general', []), q('mine', ['p1']), q('shared', ['p1', 'p2']), q('other', ['p2'])];
const p1: Position = {
  id: 'p1',
  term_id: 't1',
  title: 'Developer',
  subteam: 'Tech',
  grants: 'exec',
  description: '',
  open: true,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe('the position form', () => {
  it('starts from the position and the questions asked for it', () => {
    expect(valuesOf(p1, bank).questions).toEqual(['mine', 'shared']);
    expect(valuesOf(null, bank)).toMatchObject({ grants: 'exec', open: true, questions: [] });
    expect(questionsOf(bank, 'p1').map((x) => x.id)).toEqual(['mine', 'shared']);
  });
  it('changes only the questions ticked or unticked', () => {
    expect(questionChanges(bank, 'p1', ['mine', 'other'])).toEqual([
      { id: 'shared', position_ids: ['p2'] },
      { id: 'other', position_ids: ['p2', 'p1'] },
    ]);
    expect(questionChanges(bank, 'p1', ['mine', 'shared'])).toEqual([]);
  });
  it('refuses to make a question general by unticking it', () => {
    expect(orphaned(bank, 'p1', ['shared']).map((x) => x.id)).toEqual(['mine']);
    expect(orphaned(bank, 'p1', ['mine'])).toEqual([]);
  });
  it('sends every field, trimmed, for the term', () => {
    expect(bodyOf({ title: ' Dev ', subteam: 'Tech ', grants: 'vp', description: ' x ', open: false, questions: [] }, 't1')).toEqual({
      term_id: 't1',
      title: 'Dev',
      subteam: 'Tech',
      grants: 'vp',
      description: 'x',
      open: false,
    });
  });
});
