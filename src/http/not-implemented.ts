// The single place that answers for operations whose capability is not built yet.
// test/integration/not-implemented.test.ts lists exactly which ones, so the list can only shrink.
import { ProblemError } from '../errors/problem.ts';
import type { Handler, OperationId } from './handler.types.ts';

export const NOT_IMPLEMENTED_MARK = Symbol('notImplemented');

export function notImplemented(operationId: OperationId): Handler & { [NOT_IMPLEMENTED_MARK]: true } {
  const handler: Handler = () => {
    throw new ProblemError('not_implemented', { detail: `${operationId} is described in the contract but not available yet.` });
  };
  return Object.assign(handler, { [NOT_IMPLEMENTED_MARK]: true as const });
}
