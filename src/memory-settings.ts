// Imported first by the entry points (src/main.ts, src/worker.ts), before any module loads the canvas
// library, whose allocator reads its settings from the environment when it loads (src/lib/allocator-env.ts).
import { applyMimallocEnv } from './lib/allocator-env.ts';

applyMimallocEnv();
