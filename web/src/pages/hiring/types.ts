// The answers of the hiring endpoints that have no schema of their own.
import type { paths } from '$lib/api';

type Ok<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer T } } } } } ? T : never;

export type Team = Ok<'/api/applications/hiring/team'>;
export type Finalization = Ok<'/api/applications/hiring/finalization'>;
