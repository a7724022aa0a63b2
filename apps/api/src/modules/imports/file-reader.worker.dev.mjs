// The reader thread when the API runs from its TypeScript source (`npm run dev`, the tests):
// tsx compiles the worker's modules as it does the main thread's. The build runs the .js.
import { register } from 'tsx/esm/api';

register();
await import('./file-reader.worker.ts');
