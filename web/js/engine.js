// The page's side of engine_worker.js: each call is a message to the worker and a promise of its
// answer. Calls run one at a time in the worker, in the order they were made.
export class Engine {
  constructor(workerUrl) {
    this.worker = new Worker(workerUrl, { type: 'module' });
    this.pending = new Map();
    this.next = 1;
    this.worker.onmessage = (event) => {
      const { id, result, error } = event.data;
      const call = this.pending.get(id);
      this.pending.delete(id);
      if (error !== undefined) call.reject(new Error(error));
      else call.resolve(result);
    };
    this.worker.onerror = (event) => {
      const message = event.message || 'the engine worker failed to start';
      for (const call of this.pending.values()) call.reject(new Error(message));
      this.pending.clear();
    };
  }

  call(op, args = {}) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, args });
    });
  }
}
