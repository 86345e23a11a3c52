// The kernel's worker when the page is not cross-origin isolated: boot.ts, then the kernel's own.
import './boot';
import '@jupyterlite/pyodide-kernel/lib/comlink.worker.js';
