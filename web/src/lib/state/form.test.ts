import { describe, expect, it } from 'vitest';
import { common } from '../i18n/common';
import { ServiceError } from '../services/errors';
import { Form } from './form.svelte';

const labels = { email: 'Email', password: 'Password' };

describe('Form', () => {
  it('sends nothing while the browser finds a problem', async () => {
    const f = new Form(labels);
    let sent = false;
    expect(await f.submit(() => ({ email: 'Enter your email' }), async () => void (sent = true))).toBe(false);
    expect([sent, f.errors]).toEqual([false, { email: 'Enter your email' }]);
  });
  it('puts the server’s reasons beside their fields, else the failure above', async () => {
    const f = new Form(labels);
    await f.submit(() => ({}), () => Promise.reject(new ServiceError(400, 'Validation failed', undefined, { password: 'is too easy to guess' })));
    expect(f.errors).toEqual({ password: 'Password is too easy to guess.' });
    expect(f.failure).toBe('');
    await f.submit(() => ({}), () => Promise.reject(new ServiceError(0, 'offline')));
    expect([f.errors, f.failure]).toEqual([{}, common.errors.offline]);
    expect(f.busy).toBe(false);
  });
  it('lets the page word the refusals it knows', async () => {
    let unconfirmed = false;
    const f = new Form(labels, (e) => (e.kind === 'forbidden' ? (unconfirmed = true) : false));
    expect(await f.submit(() => ({}), () => Promise.reject(new ServiceError(403, 'Forbidden')))).toBe(false);
    expect([unconfirmed, f.failure]).toEqual([true, '']);
    expect(await f.submit(() => ({}), async () => {})).toBe(true);
  });
});
