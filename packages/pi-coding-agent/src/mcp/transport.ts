// What the JSON-RPC connection needs from a transport (stdio child process or Streamable HTTP):
// send one message, hear each parsed message, hear faults that do not end it, hear the end.

export interface TransportEvents {
  /** One parsed JSON value (not yet classified). */
  message(value: unknown): void;
  /** A fault the connection survives: a garbage line, an HTTP error for one message. */
  error(error: Error): void;
  /** The transport ended; nothing more will arrive. `reason` is one line. */
  close(reason: string): void;
}

export interface Transport {
  /** Starts the transport; events are delivered to `events` from then on. */
  start(events: TransportEvents): Promise<void>;
  send(message: object): Promise<void>;
  /** Ends the transport and everything it started; resolves when it is gone. */
  close(): Promise<void>;
  /** Set after initialize: the protocol version both sides agreed on (HTTP sends it as a header). */
  setProtocolVersion?(version: string): void;
}
