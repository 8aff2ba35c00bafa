/** One server-sent event: its `event:` name (default `message`) and its `data:` lines joined. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * Splits a server-sent-events byte stream (already decoded) into events as they complete;
 * `feed` returns the events finished by this piece, keeping a partial one for the next.
 */
export class SseDecoder {
  private pending = '';

  feed(text: string): SseEvent[] {
    this.pending += text.replace(/\r\n/g, '\n');
    const events: SseEvent[] = [];
    let boundary = this.pending.indexOf('\n\n');
    while (boundary >= 0) {
      const block = this.pending.slice(0, boundary);
      this.pending = this.pending.slice(boundary + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0) events.push({ event, data: data.join('\n') });
      boundary = this.pending.indexOf('\n\n');
    }
    return events;
  }
}
