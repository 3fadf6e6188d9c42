// Given to node with --import, it makes the process (and its worker threads, which inherit the flag)
// fail on any attempt to load tsx or a TypeScript file: a test can tell that compiled JavaScript
// runs alone. ESM imports are refused by a resolve hook, require() by a wrapper of Module._load.
import Module, { register } from 'node:module';

const TYPESCRIPT = /(^|[/\\])tsx([/\\]|$)|\.[cm]?tsx?$/;
const message = (what) => `no-typescript: ${what} was to be loaded, in a process that must run compiled JavaScript only`;

register(
  `data:text/javascript,${encodeURIComponent(`
    const TYPESCRIPT = ${TYPESCRIPT};
    export async function resolve(specifier, context, next) {
      if (TYPESCRIPT.test(specifier)) throw new Error(${JSON.stringify(message('@'))}.replace('@', specifier));
      return next(specifier, context);
    }`)}`,
);

const load = Module._load;
Module._load = function (request, ...rest) {
  if (TYPESCRIPT.test(request)) throw new Error(message(request));
  return load.call(this, request, ...rest);
};
