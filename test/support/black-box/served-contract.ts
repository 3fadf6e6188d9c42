// The contract as the running service serves it (GET /v1/openapi.json), for checking answers a test
// makes up itself (the browser tests' stand-ins for hosted-mode endpoints) against the same schemas
// clients are generated from: a stand-in that drifts from the contract fails its test.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import dereference from 'dereference-json-schema';
import { OpenAPIRouter, type Document } from 'openapi-backend';

type Schema = Record<string, unknown>;

export interface ServedContract {
  /** Throws, naming the operation and what is wrong, unless `body` is a documented `status` JSON answer of `method url`. */
  assertResponse(method: string, url: string, status: number, body: unknown): void;
}

export async function servedContract(baseUrl: string): Promise<ServedContract> {
  const res = await fetch(`${baseUrl}/v1/openapi.json`);
  if (res.status !== 200) throw new Error(`GET /v1/openapi.json answered ${res.status}`);
  const document = dereference.dereferenceSync((await res.json()) as never) as unknown as Document;
  const router = new OpenAPIRouter({ definition: document });
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const validators = new Map<Schema, ValidateFunction>();
  return {
    assertResponse(method, url, status, body) {
      const pathname = new URL(url, baseUrl).pathname;
      const operation = router.matchOperation({ method, path: pathname, headers: {} });
      if (!operation) throw new Error(`${method} ${pathname} is not in the contract`);
      const responses = operation.responses as Record<string, { content?: Record<string, { schema?: Schema }> }>;
      // A refusal is application/problem+json.
      const content = responses[String(status)]?.content;
      const schema = (content?.['application/json'] ?? content?.['application/problem+json'])?.schema;
      if (!schema) throw new Error(`${operation.operationId} declares no JSON ${status} answer`);
      let validate = validators.get(schema);
      if (!validate) validators.set(schema, (validate = ajv.compile(schema)));
      if (!validate(body))
        throw new Error(`a ${status} answer of ${operation.operationId} does not match the contract: ${ajv.errorsText(validate.errors)}`);
    },
  };
}
