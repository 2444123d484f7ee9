// A body over the declared limit is read to its end before the 413 goes out: a proxy in front of the target (nginx)
// still writing it would otherwise meet a closed connection and answer 502 of its own.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startReference } from '../../reference/index.ts';

const OVERSIZED_BYTES = 600 * 1024;
const PIECE_BYTES = 16 * 1024;

/** Writes a trigger with a Content-Length over the limit piece by piece, as a proxy relays it; resolves what happened. */
function sendOversized(port: number, apiKey: string): Promise<{ answer: string; writeError?: string }> {
  return new Promise((resolve) => {
    // why: half-open, so that the sender goes on writing after the answer, as a proxy relaying the body does
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let answer = '';
    let writeError: string | undefined;
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (writeError ??= e.code ?? e.message));
    socket.on('close', () => resolve({ answer, ...(writeError ? { writeError } : {}) }));
    socket.once('connect', async () => {
      socket.write(`POST /v1/events/trigger HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ApiKey ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${OVERSIZED_BYTES}\r\n\r\n`);
      for (let sent = 0; sent < OVERSIZED_BYTES && !socket.destroyed; sent += PIECE_BYTES) {
        // why: a pause between pieces, as behind a proxy, lets the reference answer (and close) before the body is in
        await new Promise((r) => setTimeout(r, 5));
        if (!socket.destroyed) socket.write(Buffer.alloc(Math.min(PIECE_BYTES, OVERSIZED_BYTES - sent), 0x20));
      }
      if (!socket.destroyed) socket.end();
    });
  });
}

describe('a body over the limit', () => {
  it('is read to its end, then answered 413 with the common error body, and no write of the sender fails', async () => {
    const reference = await startReference({});
    try {
      const { answer, writeError } = await sendOversized(Number(new URL(reference.baseUrl).port), reference.apiKeys.dev);
      expect(writeError, 'the sender wrote its whole body without a reset or broken pipe').toBeUndefined();
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toMatch(/"statusCode":413/);
    } finally {
      await reference.close();
    }
  });
});
