/**
 * What the sandbox was asked and what it answered, for tests that must check the wire itself
 * (a conditional read sent with If-None-Match and answered 304). On when the sandbox is started
 * with `recordRequests: true`; a dropped connection is recorded with status 0.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RequestRecord {
  method: string;
  /** path and query as sent, e.g. /api/v1/pages/blog?lang=de */
  url: string;
  ifNoneMatch: string | null;
  status: number;
}

export class RequestLog {
  private records: RequestRecord[] = [];

  record(req: IncomingMessage, res: ServerResponse): void {
    const inm = req.headers['if-none-match'];
    const rec: RequestRecord = { method: req.method ?? 'GET', url: req.url ?? '/', ifNoneMatch: typeof inm === 'string' ? inm : null, status: 0 };
    this.records.push(rec);
    res.on('finish', () => (rec.status = res.statusCode));
  }

  list(filter?: (r: RequestRecord) => boolean): RequestRecord[] {
    return filter ? this.records.filter(filter) : [...this.records];
  }

  clear(): void {
    this.records = [];
  }
}
