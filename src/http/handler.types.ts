// Types that bind a handler file to its operation in the contract.
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { operations } from '../../codegen/openapi.ts';
import type { AppDeps } from './app-deps.types.ts';
import type { Principal } from '../services/auth.service.ts';
import { sendRepresentation } from './conditional-request.ts';

export type OperationId = keyof operations;

type Op<Id extends OperationId> = operations[Id];

export type JsonRequestBody<Id extends OperationId> =
  Op<Id> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
export type PathParams<Id extends OperationId> = Op<Id> extends { parameters: { path?: infer P } } ? NonNullable<P> : never;
export type QueryParams<Id extends OperationId> = Op<Id> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type Responses<Id extends OperationId> = Op<Id>['responses'];
export type JsonStatus<Id extends OperationId> = {
  [S in keyof Responses<Id>]: Responses<Id>[S] extends { content: { 'application/json': unknown } } ? S : never;
}[keyof Responses<Id>] &
  number;
export type JsonResponseBody<Id extends OperationId, S extends keyof Responses<Id>> = Responses<Id>[S] extends {
  content: { 'application/json': infer B };
}
  ? B
  : never;

export interface RequestContext<Id extends OperationId = OperationId> {
  readonly operationId: Id;
  readonly req: Request;
  readonly res: Response;
  /** The validated JSON body (undefined when none was sent). */
  readonly body: JsonRequestBody<Id>;
  readonly params: PathParams<Id>;
  readonly query: QueryParams<Id>;
  /** The authenticated principal; always set on secured operations. */
  readonly principal: Principal | null;
  readonly deps: AppDeps;
  readonly log: Logger;
  /** Aborted when the client disconnects before the response is complete. */
  readonly signal: AbortSignal;
}

export type Handler<Id extends OperationId = OperationId> = (ctx: RequestContext<Id>) => Promise<void> | void;

/** Declares a handler for one operation, typing its body, params and responses from the contract. */
export function defineHandler<Id extends OperationId>(_operationId: Id, handler: Handler<Id>): Handler<Id> {
  return handler;
}

/**
 * Sends a JSON response whose shape the compiler checks against the contract. A 200 to GET carries
 * a strong ETag of its bytes and becomes 304 for a matching If-None-Match (conditional-request.ts).
 */
export function sendJson<Id extends OperationId, S extends JsonStatus<Id>>(
  ctx: RequestContext<Id>,
  status: S,
  body: JsonResponseBody<Id, S>,
  headers: Record<string, string> = {},
): void {
  sendRepresentation(ctx.req, ctx.res, status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
}

/** The principal of a secured operation (the router guarantees it is set). */
export function requirePrincipal(ctx: RequestContext): Principal {
  if (!ctx.principal) throw new Error(`${ctx.operationId}: no principal on a secured operation`);
  return ctx.principal;
}
