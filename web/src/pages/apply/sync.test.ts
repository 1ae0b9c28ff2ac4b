import { describe, expect, it } from 'vitest';
import { emptyValues } from './model';
import { buildPatch } from './sync';

const base = () => ({ ...emptyValues('me@example.com'), team: [{ email: 'ada@example.com', name: 'Ada' }] });
const q = { id: 'q1', prompt: 'Why?', char_limit: 10, required: true };

describe('buildPatch', () => {
  it('sends nothing when nothing changed (trimmed text compares equal)', () => {
    const v = { ...base(), email: ' me@example.com ' };
    expect(buildPatch(v, base(), [])).toEqual({ patch: {}, fields: [], held: [] });
  });

  it('sends only the changed fields, numbers as numbers and blanks as null', () => {
    const b = { ...base(), country: 'Canada' };
    const v = { ...b, phone: ' 709 555 0100 ', age: '21', country: '', coc_agreed: true };
    const { patch, fields } = buildPatch(v, b, []);
    expect(patch).toEqual({ phone: '709 555 0100', age: 21, country: null, coc_agreed: true });
    expect(fields.sort()).toEqual(['age', 'coc_agreed', 'country', 'phone']);
  });

  it('holds back a field that fails the rules without holding back the rest', () => {
    const v = { ...base(), age: '2x', tshirt_size: 'M', q2_answer: 'x'.repeat(1001), program: 'CS' };
    const { patch, held } = buildPatch(v, base(), []);
    expect(patch).toEqual({ tshirt_size: 'M', program: 'CS' });
    expect(held.sort()).toEqual(['age', 'q2_answer']);
  });

  it('sends team_members only when a tag changes, as comma-separated emails', () => {
    expect(buildPatch({ ...base(), team: [{ email: 'ada@example.com', name: null }] }, base(), []).patch).toEqual({});
    const v = { ...base(), team: [...base().team, { email: 'bob@example.com', name: null }] };
    expect(buildPatch(v, base(), []).patch).toEqual({ team_members: 'ada@example.com,bob@example.com' });
    expect(buildPatch({ ...base(), team: [] }, base(), []).patch).toEqual({ team_members: '' });
  });

  it('sends answers only for questions that apply, within their limits', () => {
    const v = { ...base(), answers: { q1: 'Because', gone: 'old' } };
    expect(buildPatch(v, base(), [q]).patch).toEqual({ answers: { q1: 'Because' } });
    expect(buildPatch({ ...base(), answers: { q1: 'x'.repeat(11) } }, base(), [q]).held).toEqual(['answers.q1']);
    const cleared = buildPatch({ ...base(), answers: { q1: '' } }, { ...base(), answers: { q1: 'Because' } }, [q]);
    expect(cleared.patch).toEqual({ answers: { q1: null } });
  });

  it('sends positions when the set changes, at most three', () => {
    const b = { ...base(), position_ids: ['a', 'b'] };
    expect(buildPatch({ ...b, position_ids: ['b', 'a'] }, b, []).patch).toEqual({});
    expect(buildPatch({ ...b, position_ids: ['a'] }, b, []).patch).toEqual({ position_ids: ['a'] });
    expect(buildPatch({ ...b, position_ids: ['a', 'b', 'c', 'd'] }, b, []).held).toEqual(['position_ids']);
  });

  it('holds a value the server refused until it changes', () => {
    const v = { ...base(), discord: 'bad name', phone: '709 555 0100' };
    const refused = { discord: 'bad name' };
    expect(buildPatch(v, base(), [], refused).patch).toEqual({ phone: '709 555 0100' });
    expect(buildPatch({ ...v, discord: 'good_name' }, base(), [], refused).patch).toEqual({ phone: '709 555 0100', discord: 'good_name' });
  });
});
