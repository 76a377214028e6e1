// The PDF helper thread's entry when running from TypeScript sources (npm start, tests): worker
// threads do not inherit the parent's tsx loader on Node 20, so register it here, then load the
// thread. (Plain JavaScript so Node can start it without any loader.) Bundles use
// pdf-helper-thread.mjs instead (lib/cloud/bundling.ts).
import { register } from 'tsx/esm/api';

register();
await import('./pdf-helper-thread.ts');
