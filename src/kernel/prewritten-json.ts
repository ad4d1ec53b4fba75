/**
 * A value's JSON, already written (UTF-8 bytes). The server sends the bytes as they are, spliced
 * into the response around them, without turning them into a string and back. Directly answered
 * fields return them (graphql-direct.ts) and the request context keeps them (`Ctx.prewritten`).
 */
export class PrewrittenJson {
  /**
   * `spare`: the memory around `bytes` in its ArrayBuffer belongs to this value alone (never a
   * pooled Buffer's), so the server may write the response's head and tail there instead of
   * copying the bytes into a new buffer.
   */
  constructor(
    readonly bytes: Buffer,
    readonly spare = false,
  ) {}

  /** The JSON text. */
  get text(): string {
    return this.bytes.toString('utf8');
  }

  /** The value itself, for anything that serialises the result other than the server's stringifier. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}
