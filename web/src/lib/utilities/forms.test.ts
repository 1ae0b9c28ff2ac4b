import { describe, expect, it } from 'vitest';
import { common } from '../i18n/common';
import { body_createAccount } from '../rules.gen';
import { ServiceError } from '../services/errors';
import { checkFields, errorText, hasErrors, sentence, serverFieldErrors, summaryItems, waitText } from './forms';

describe('checkFields', () => {
  const fields = ['email', 'password', 'display_name'] as const;
  it('reports each field with the server rules', () => {
    const got = checkFields(body_createAccount, { email: 'nope', password: 'short', display_name: '' }, fields);
    expect(got).toEqual({
      email: common.problems.email,
      password: common.problems.tooShort(8),
      display_name: common.problems.required,
    });
  });
  it('names the field when given words', () => {
    const words = { required: { display_name: 'Enter a display name' }, labels: { password: 'Password' } };
    const got = checkFields(body_createAccount, { email: '', password: 'short', display_name: '' }, fields, words);
    expect(got).toEqual({
      email: common.problems.required,
      password: 'Password must be 8 characters or more',
      display_name: 'Enter a display name',
    });
  });
  it('requires a field the form gives an empty-field message for', () => {
    const rules = { display_name: { types: ['string'], minLength: 1, required: false } } as const;
    expect(checkFields(rules, { display_name: ' ' }, ['display_name'])).toEqual({});
    expect(checkFields(rules, { display_name: ' ' }, ['display_name'], { required: { display_name: 'Enter a display name' } })).toEqual({
      display_name: 'Enter a display name',
    });
  });
  it('words a refused pattern', () => {
    const words = { pattern: { display_name: 'No control characters' } };
    expect(checkFields(body_createAccount, { email: 'a@b.co', password: 'correct horse', display_name: 'A\u0007B' }, fields, words)).toEqual({
      display_name: 'No control characters',
    });
    expect(checkFields(body_createAccount, { email: 'a@b.co', password: 'correct horse', display_name: 'A\u0007B' }, fields).display_name).toBe(
      common.problems.pattern,
    );
  });
  it('accepts a valid form', () => {
    expect(checkFields(body_createAccount, { email: 'a@b.co', password: 'correct horse', display_name: 'Ada' }, fields)).toEqual({});
  });
  it('counts code points, as the server does', () => {
    expect(checkFields(body_createAccount, { email: 'a@b.co', password: '🙂'.repeat(128), display_name: 'A' }, fields)).toEqual({});
    expect(checkFields(body_createAccount, { email: 'a@b.co', password: '🙂'.repeat(129), display_name: 'A' }, fields).password).toBe(
      common.problems.tooLong(128),
    );
  });
});

describe('sentence', () => {
  it('prefixes a reason with the label', () => {
    expect(sentence('Password', 'is too easy to guess')).toBe('Password is too easy to guess.');
  });
  it('keeps a whole sentence', () => {
    expect(sentence('Display name', 'Display name must not contain control characters.')).toBe(
      'Display name must not contain control characters.',
    );
  });
  it('ignores an empty reason', () => expect(sentence('Email', '  ')).toBe(''));
});

describe('serverFieldErrors', () => {
  const labels = { email: 'Email', password: 'Password' };
  it('keeps the details of the form\u2019s fields', () => {
    const e = new ServiceError(400, 'Validation failed', 'bad', { password: 'is too easy to guess', token: 'x' });
    expect(serverFieldErrors(e, labels)).toEqual({ password: 'Password is too easy to guess.' });
  });
  it('reads a field the server names otherwise by its key', () => {
    const e = new ServiceError(400, 'Validation failed', undefined, { 'exec.subteam': 'is required for a VP' });
    expect(serverFieldErrors(e, { subteam: 'Subteam' }, { subteam: 'exec.subteam' })).toEqual({ subteam: 'Subteam is required for a VP.' });
  });
  it('ignores other statuses and errors', () => {
    expect(serverFieldErrors(new ServiceError(401, 'Unauthorized'), labels)).toEqual({});
    expect(serverFieldErrors(new Error('x'), labels)).toEqual({});
  });
});

describe('waitText', () => {
  it('says seconds, then minutes, then hours', () => {
    expect(waitText(undefined)).toBeUndefined();
    expect(waitText(0)).toBeUndefined();
    expect(waitText(1)).toBe('1 second');
    expect(waitText(30)).toBe('30 seconds');
    expect(waitText(119)).toBe('119 seconds');
    expect(waitText(120)).toBe('2 minutes');
    expect(waitText(121)).toBe('3 minutes');
    expect(waitText(119 * 60)).toBe('119 minutes');
    expect(waitText(120 * 60)).toBe('2 hours');
    expect(waitText(11 * 3600 + 1)).toBe('12 hours'); // a day's quota of the team search
  });
});

describe('errorText', () => {
  it('words each kind of failure', () => {
    expect(errorText(new ServiceError(0, 'offline'))).toBe(common.errors.offline);
    expect(errorText(new ServiceError(429, 'Too many requests', undefined, {}, 30))).toBe(common.tooManyAttempts('30 seconds'));
    expect(errorText(new ServiceError(503, 'Busy', undefined, {}, 2))).toBe(common.busy('2 seconds'));
    expect(errorText(new ServiceError(500, 'Internal server error', 'db down'))).toBe(common.errors.generic);
    expect(errorText(new ServiceError(401, 'Unauthorized'))).toBe(common.errors.signedOut);
    expect(errorText(new ServiceError(400, 'Invalid or expired token'))).toBe('Invalid or expired token');
    expect(errorText(new ServiceError(409, 'Conflict', 'Already paid'))).toBe('Already paid');
    expect(errorText(new TypeError('x'))).toBe(common.errors.generic);
  });
});

describe('summaryItems', () => {
  it('follows the page order and skips fields without a problem', () => {
    const ids = { email: 'email', password: 'password', display_name: 'display-name' };
    expect(summaryItems({ display_name: 'A', email: 'B' }, ids)).toEqual([
      { id: 'email', text: 'B' },
      { id: 'display-name', text: 'A' },
    ]);
    expect(hasErrors({})).toBe(false);
    expect(hasErrors({ email: 'x' })).toBe(true);
  });
});
