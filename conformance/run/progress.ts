// Which check got an answer: the probe reports every finished HTTP exchange under the signal of the
// request (a check's own signal), and the runner restarts that check's time limit. A check is then
// stopped for time only when the target stops answering it, never because a loaded machine made its
// many answers slow to come.
const listeners = new WeakMap<AbortSignal, () => void>();

export function onProgress(signal: AbortSignal, listener: () => void): void {
  listeners.set(signal, listener);
}

/** An exchange sent under `signal` finished (answered, refused or failed). */
export function progressed(signal: AbortSignal | undefined): void {
  if (signal) listeners.get(signal)?.();
}
