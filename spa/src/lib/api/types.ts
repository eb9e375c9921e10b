/**
 * Types derived from the GENERATED schema (./schema.d.ts). Nothing here describes a payload by
 * hand: every type is read off `paths` by path and method, or off `components.schemas` by name.
 */
import type { components, paths } from './schema';

export type { components, paths };
export type Schemas = components['schemas'];
export type ApiPath = keyof paths;
export type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';

type OperationOf<P extends ApiPath, M extends Method> = NonNullable<paths[P][M & keyof paths[P]]>;
type JsonOf<T> = T extends { content: { 'application/json': infer J } } ? J : never;
type ResponsesOf<O> = O extends { responses: infer R } ? R : never;

/** The JSON body of the operation's 200 or 201 answer (the envelope {status_code, message, data}). */
export type ApiResponse<P extends ApiPath, M extends Method> =
  ResponsesOf<OperationOf<P, M>> extends infer R
    ? R extends { 200: infer A }
      ? JsonOf<A>
      : R extends { 201: infer B }
        ? JsonOf<B>
        : never
    : never;

/** The `data` of the operation's envelope. */
export type ApiData<P extends ApiPath, M extends Method> = ApiResponse<P, M> extends { data: infer D } ? D : never;

/** The JSON request body of the operation. */
export type ApiBody<P extends ApiPath, M extends Method> =
  OperationOf<P, M> extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;

/** The query parameters of the operation. */
export type ApiQuery<P extends ApiPath, M extends Method> =
  OperationOf<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The item type of a paged list answer (data = {items, total, page, size, pages}). */
export type PageItem<P extends ApiPath, M extends Method = 'get'> = ApiData<P, M> extends { items: Array<infer I> } ? I : never;

export interface PageOf<T> {
  items: T[];
  total: number;
  page: number;
  size: number;
  pages: number;
}

/** The paths that have method M. */
export type PathWith<M extends Method> = {
  [P in ApiPath]: [NonNullable<paths[P][M & keyof paths[P]]>] extends [never] ? never : P;
}[ApiPath];

/** '/api/city/cities/{id}' → '/city/cities/${string}': a path as the client writes it (base stripped, parameters filled). */
type Filled<P extends string> = P extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${string}${Filled<Tail>}` : P;
type Relative<P> = P extends `/api${infer R extends string}` ? Filled<R> : never;

/**
 * A path of the API relative to its base, that has method M: `ApiRoute<'get'>` accepts
 * '/region' and `/state/states/${id}`, and a typo or a path without that method is a type error.
 */
export type ApiRoute<M extends Method> = Relative<PathWith<M>>;
