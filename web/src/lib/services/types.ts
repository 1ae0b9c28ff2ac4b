// The API's types by name (generated into ../api.d.ts from
// api/openapi.yaml), for the types services hand to components.
import type { components, operations, paths } from '../api';

export type Schemas = components['schemas'];

// Ok is the JSON a GET of path answers with 200, for answers that have no
// schema of their own.
export type Ok<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer T } } } } } ? T : never;

// Page is one page of a list and how many there are in all.
export type Page<T> = { items: T[]; total: number };

// Upload is a file on its way to the server: the answer, and a way to
// abort it (a newer pick replaces it).
export type Upload<T> = { promise: Promise<T>; abort: () => void };

// Body is an operation's JSON request body, for bodies that have no schema
// of their own.
export type Body<O extends keyof operations> = operations[O] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
