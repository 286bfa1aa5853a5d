/**
 * Opens that may block a thread-pool thread for as long as nobody opens the other end (a FIFO read
 * or written). While one is pending, `process.exit` cannot finish (Node waits for the thread), so
 * the SIGINT handler (src/cli/io.ts) ends the process by the signal itself instead.
 */
let pending = 0;

export async function blockingOpen<T>(open: () => Promise<T>): Promise<T> {
  pending++;
  try {
    return await open();
  } finally {
    pending--;
  }
}

export function blockingOpens(): number {
  return pending;
}
