/** A response the provider refuses to read on. Its message is the turn's whole errorMessage. */
export class StreamProblem extends Error {
  override name = "StreamProblem";
}
