/**
 * A failure with a code a caller can branch on and extra fields it may show beside the message:
 * what each layer below api/ raises (the engine's EngineError, tracking's TrackingError), so no
 * HTTP reaches into them; api/shared/errors.ts maps each code to the product envelopes.
 */
export class CodedError<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    /** Extra fields the caller may show beside the message, e.g. reason: "budget_exhausted". */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}
