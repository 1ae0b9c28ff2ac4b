// The caller's own account: the session, signing up, in and out, the
// email confirmation and password reset, the live sessions and the
// profile's own fields.
import { call, client } from './client';
import type { Body, Schemas } from './types';

export type Profile = Schemas['User'];
export type Session = Schemas['Session'];

export const auth = {
  // session is the signed-in caller, or null when signed out (always a
  // 200: a signed-out visitor is not an error).
  session: async (): Promise<Profile | null> => (await call(client.GET('/api/auth/session'))).user,
  logout: () => call(client.POST('/api/auth/logout')),
  // login refuses with kind "unauthorized" (wrong email or password) or
  // "forbidden" (the address is not confirmed yet).
  login: (email: string, password: string) => call(client.POST('/api/auth/login', { body: { email, password } })),
  // keep cancels the deletion of an account in its grace period and signs
  // in as login does (same refusals; kind "forbidden" once the deletion
  // has begun).
  keep: (email: string, password: string) => call(client.POST('/api/auth/keep', { body: { email, password } })),
  signup: (body: Body<'createAccount'>) => call(client.POST('/api/auth/signup', { body })),
  // confirm refuses an unknown, used or expired token with kind "invalid".
  confirm: (token: string) => call(client.POST('/api/auth/confirm', { body: { token } })),
  forgotPassword: (email: string) => call(client.POST('/api/auth/forgot-password', { body: { email } })),
  // resetPassword refuses a weak password with details.password, an
  // unknown, used or expired token with kind "invalid" and no details.
  resetPassword: (token: string, password: string) => call(client.POST('/api/auth/reset-password', { body: { token, password } })),
  sessions: async (): Promise<Session[]> => (await call(client.GET('/api/auth/sessions'))).sessions,
  // signOutOthers ends every session but this one; it answers how many.
  signOutOthers: async (): Promise<number> => (await call(client.DELETE('/api/auth/sessions'))).revoked,
  updateProfile: (body: Body<'updateProfile'>) => call(client.PATCH('/api/profile', { body })),
};
