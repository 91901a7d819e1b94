// The contract's error codes, their HTTP statuses (docs/api.md, Errors) and the one error type that
// services and the /v1 wrapper throw. The table is the only place a code meets its status.
export const ERROR_STATUS = {
  forbidden: 403,
  missing_version: 400,
  invalid_version: 400,
  unauthorized: 401,
  rate_limited: 429,
  payload_too_large: 413,
  invalid_json: 400,
  validation_error: 400,
  not_found: 404,
  method_not_allowed: 405,
  /** A preview whose text no bundled font can draw (previews only). */
  unsupported_text: 422,
  conflict: 409,
  /** An Idempotency-Key sent again with another method, path or body (docs/api.md, Idempotent retries). */
  idempotency_key_reused: 422,
  payment_required: 402,
  /** A request the HTTP parser cannot read (an unknown method token, malformed headers): no route saw it. */
  bad_request: 400,
  /** A request whose headers or body did not arrive in time (server.ts drops the connection after it). */
  request_timeout: 408,
  internal_server_error: 500,
  /** A worker-only process (CIS_BACKGROUND=only) asked for anything but its health. */
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type ErrorDetail = { path: string; message: string };

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, options?: { details?: ErrorDetail[]; headers?: Record<string, string> }) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.details = options?.details;
    this.headers = options?.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): { error: { code: ErrorCode; message: string; details?: ErrorDetail[] } } {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

/** A validation error naming one field; services use it for rules zod cannot see (references, dates). */
export function invalidField(path: string, message: string): ApiError {
  return new ApiError("validation_error", `${path}: ${message}`, { details: [{ path, message }] });
}

export function invalidFields(details: ErrorDetail[]): ApiError {
  const summary = details.map((d) => `${d.path}: ${d.message}`).join("; ");
  return new ApiError("validation_error", `The request is invalid: ${summary}`, { details });
}

export function notFound(what: string): ApiError {
  return new ApiError("not_found", `${what} not found.`);
}
