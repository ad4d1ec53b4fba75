import { connect, type Socket } from 'node:net';

/**
 * A minimal HTTP/1.1 client for load generation: one keep-alive socket, one request at a time,
 * the request written as one buffer and the response read by its status line and
 * `content-length` (or chunks). On two cores the load generator takes its CPU from the server
 * it measures, so it should take as little as it can: no agent, request and response objects or
 * header objects per request (about 0.1 ms of CPU per booking in `bench/bookings.ts`).
 */
export class LeanConnection {
  private socket: Socket;
  private buf: Buffer = Buffer.alloc(0);
  private waiting: { resolve(r: LeanResponse): void; reject(e: Error): void } | null = null;
  private readonly hostHeader: string;

  private constructor(
    host: string,
    private readonly port: number,
  ) {
    this.hostHeader = `${host}:${port}`;
    this.socket = connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (err) => this.fail(err));
    this.socket.on('close', () => this.fail(new Error('connection closed')));
  }

  static open(base: string): Promise<LeanConnection> {
    const url = new URL(base);
    const c = new LeanConnection(url.hostname, Number(url.port));
    return new Promise((resolve, reject) => {
      c.socket.once('connect', () => resolve(c));
      c.socket.once('error', reject);
    });
  }

  /** Sends a request and resolves with its status and body once the whole answer is in. */
  request(method: string, path: string, headers: Record<string, string>, body?: string): Promise<LeanResponse> {
    if (this.waiting) return Promise.reject(new Error('one request at a time'));
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.hostHeader}\r\n`;
    for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
    const payload = body === undefined ? null : Buffer.from(body);
    if (payload) head += `content-length: ${payload.length}\r\n`;
    head += '\r\n';
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(payload ? Buffer.concat([Buffer.from(head, 'latin1'), payload]) : head);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private fail(err: Error): void {
    const w = this.waiting;
    this.waiting = null;
    w?.reject(err);
  }

  private onData(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const r = parseResponse(this.buf);
    if (!r) return;
    this.buf = this.buf.subarray(r.consumed);
    const w = this.waiting;
    this.waiting = null;
    w?.resolve(r.response);
  }
}

export interface LeanResponse {
  status: number;
  body: Buffer;
}

const CRLFCRLF = Buffer.from('\r\n\r\n');

/** One complete response at the start of `buf`, or null while it is incomplete. */
export function parseResponse(buf: Buffer): { response: LeanResponse; consumed: number } | null {
  const headEnd = buf.indexOf(CRLFCRLF);
  if (headEnd < 0) return null;
  const head = buf.toString('latin1', 0, headEnd);
  const status = Number(head.slice(9, 12));
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  const start = headEnd + 4;
  if (length) {
    const end = start + Number(length[1]);
    return buf.length < end ? null : { response: { status, body: buf.subarray(start, end) }, consumed: end };
  }
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) return { response: { status, body: Buffer.alloc(0) }, consumed: start };
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(buf.toString('latin1', at, lineEnd), 16);
    const dataStart = lineEnd + 2;
    if (buf.length < dataStart + size + 2) return null;
    if (size === 0) return { response: { status, body: Buffer.concat(parts) }, consumed: dataStart + 2 };
    parts.push(buf.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}
