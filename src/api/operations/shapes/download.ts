/** A file streamed as the 200 answer instead of one JSON document (exportDataSet). */
export interface RestDownload {
  readonly contentType: string;
  /** Sent as `Content-Disposition: attachment; filename="…"`. */
  readonly fileName: string;
  /** Items it holds: the cost of an operation charged by size counts them (operation-costs). */
  readonly items: number;
  /**
   * The text, chunk by chunk, read only as fast as the client takes it. A failure before the
   * first chunk is an ordinary error answer; after it, the answer is cut short.
   */
  readonly body: AsyncIterable<string>;
}
