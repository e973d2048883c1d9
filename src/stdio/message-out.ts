/**
 * Where a connection's messages go, whatever frames them: a line on stdout (`LineWriter`), a text
 * frame on a WebSocket. Each `send` is one whole JSON-RPC message, handed over in call order.
 *
 * @module
 */

/** The output of one connection. */
export interface MessageOut {
  /**
   * Sends one message.
   *
   * @param message The serialised JSON-RPC message.
   */
  send(message: string): void;
  /**
   * Waits until every message sent so far was handed to the output.
   *
   * @returns When they were.
   */
  flush(): Promise<void>;
}
