// The start of a server process (instrumentation.ts, Node.js runtime only): a bad
// configuration value stops it here, with the variable's name, rather than answering
// 500 to its first request.
import 'server-only';
import { validateConfig } from './config';

export function validateConfigOrStop(): void {
  try {
    validateConfig();
  } catch (err) {
    console.error(`[crossroads] configuration error: ${err instanceof Error ? err.message : String(err)}. The server stops.`);
    process.exit(1);
  }
}
