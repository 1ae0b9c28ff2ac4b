import { describe, expect, it } from 'vitest';
import { apply } from '$lib/i18n/apply';
import { checkFields } from './check';
import { emptyValues } from './model';
import { pageOfField, pages } from './pages';
import { requiredForSubmit } from './required';

const ctx = { questions: [], resumeName: null, uploading: false };

describe('step validation', () => {
  it('asks for every required field of a page, in GOV.UK words', () => {
    const errors = checkFields(pages[0]!.fields, emptyValues(), ctx);
    expect(errors).toEqual({
      email: apply.required.email,
      phone: apply.required.phone,
      discord: apply.required.discord,
    });
  });

  it('lets optional fields stay empty', () => {
    expect(checkFields(pages[2]!.fields, emptyValues(), ctx)).toEqual({});
    expect(checkFields(['github_url', 'dietary_restrictions', 'team_members', 'marketing_opt_in'], emptyValues(), ctx)).toEqual({});
  });

  it('checks values with the server’s rules', () => {
    const v = { ...emptyValues(), age: '12', tshirt_size: 'XXXL', hackathons_attended: 'two' };
    const errors = checkFields(['age', 'tshirt_size', 'hackathons_attended'], v, ctx);
    expect(Object.keys(errors).sort()).toEqual(['age', 'hackathons_attended', 'tshirt_size']);
  });

  it('needs an uploaded resume, and waits for one in flight', () => {
    expect(checkFields(['resume'], emptyValues(), ctx)).toEqual({ resume: apply.required.resume });
    expect(checkFields(['resume'], emptyValues(), { ...ctx, resumeName: 'cv.pdf' })).toEqual({});
    expect(checkFields(['resume'], emptyValues(), { ...ctx, resumeName: 'cv.pdf', uploading: true })).toEqual({ resume: apply.resume.uploading });
  });

  it('checks required question-bank answers and their limits', () => {
    const questions = [
      { id: 'a', prompt: 'Why us?', char_limit: 5, required: true },
      { id: 'b', prompt: 'Anything else?', char_limit: null, required: false },
    ];
    const v = { ...emptyValues(), answers: {} };
    expect(checkFields(['answers'], v, { ...ctx, questions })).toEqual({ 'answers.a': apply.answerRequired('Why us?') });
    const long = checkFields(['answers'], { ...v, answers: { a: 'toolong' } }, { ...ctx, questions });
    expect(Object.keys(long)).toEqual(['answers.a']);
  });

  it('needs both league boxes', () => {
    const errors = checkFields(pages[9]!.fields, emptyValues(), ctx);
    expect(Object.keys(errors).sort()).toEqual(['coc_agreed', 'info_share_authorized']);
  });

  it('places every required field on a page before Review', () => {
    for (const f of requiredForSubmit) {
      const p = pageOfField(f);
      expect(p, f).not.toBeNull();
      expect(p!, f).toBeLessThan(pages.length - 1);
    }
    expect(pageOfField('answers.123')).toBe(7);
    expect(pageOfField('profile_id')).toBeNull();
  });
});

describe('server details', () => {
  it('words a missing field as the form does and keeps other reasons beside the name', async () => {
    const { serverMessage } = await import('./check');
    expect(serverMessage('resume', 'upload a resume')).toBe(apply.required.resume);
    expect(serverMessage('coc_agreed', 'you must agree to the code of conduct')).toBe(apply.required.coc_agreed);
    expect(serverMessage('phone', 'must be a phone number')).toBe('Phone number: must be a phone number');
    expect(serverMessage('team_members', 'you cannot list yourself')).toBe('Team members: you cannot list yourself');
    const questions = [{ id: 'x', prompt: 'Why us?', char_limit: null, required: true }];
    expect(serverMessage('answers.x', 'is required', questions)).toBe(apply.answerRequired('Why us?'));
  });
});

describe('the server’s patterns', () => {
  const one = (f: string, v: string) => checkFields([f], { ...emptyValues(), [f]: v }, ctx)[f] ?? null;
  it('checks phone numbers, Discord names and web addresses as the Go rules do', () => {
    expect(one('phone', '+1 (709) 555-0100')).toBeNull();
    expect(one('phone', 'call me')).toBe(apply.patterns.phone);
    expect(one('discord', 'avery_42')).toBeNull();
    expect(one('discord', 'bad name')).toBe(apply.patterns.discord);
    expect(one('github_url', 'https://github.com/avery')).toBeNull();
    expect(one('github_url', 'github.com/avery')).toBe(apply.patterns.github_url);
    expect(one('website_url', 'https://user@evil.example')).toBe(apply.patterns.website_url);
  });
});
