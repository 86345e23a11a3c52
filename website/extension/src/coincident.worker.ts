// The kernel's worker in a cross-origin isolated page: boot.ts, then the kernel's own.
import './boot';
import '@jupyterlite/pyodide-kernel/lib/coincident.worker.js';
