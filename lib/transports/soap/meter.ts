// Technical infos: totalDuration always; with adxwss.trace.on=on also the time spent in
// the database and the number of records read and written.
import type { TechnicalInfo } from './result';

export class Meter {
  private readonly started: number;
  dbMs = 0;
  recordsRead = 0;
  recordsWritten = 0;

  constructor(started = performance.now()) {
    this.started = started;
  }

  /** Runs one database step and adds its wall time to dbMs. */
  async db<T>(step: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await step();
    } finally {
      this.dbMs += performance.now() - t0;
    }
  }

  infos(trace: boolean): TechnicalInfo[] {
    const total = performance.now() - this.started;
    const out: TechnicalInfo[] = [{ type: 'totalDuration', message: String(Math.round(total)) }];
    if (trace) {
      out.push(
        { type: 'dbDuration', message: String(Math.round(this.dbMs)) },
        { type: 'recordsRead', message: String(this.recordsRead) },
        { type: 'recordsWritten', message: String(this.recordsWritten) },
      );
    }
    return out;
  }
}
