// Loaded with NODE_OPTIONS=--import=…: prints every package module the process loads, for start-up tests.
import { register } from 'node:module';

const hooks = `export async function load(url, context, next) {
  if (url.includes('/node_modules/')) process.stderr.write('LOADED ' + url + '\\n');
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
