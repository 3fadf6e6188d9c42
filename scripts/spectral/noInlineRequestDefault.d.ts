/** Each inline `default` in a schema reachable from a request body, with its path in the document (see noInlineRequestDefault.js). */
export default function noInlineRequestDefault(document: unknown): { message: string; path: (string | number)[] }[];
