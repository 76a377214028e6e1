// Worker threads do not inherit the parent's TypeScript loader on Node 20: register tsx here, then
// load the worker itself. (Plain JavaScript so Node can start it without any loader.)
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
