/**
 * The stable code an upstream's failure gets, by its HTTP status (or the status its error type
 * stands for): the same whether the failure came as an HTTP answer (routing) or as an error event
 * inside a stream (each dialect's stream decoder).
 */
export function codeForStatus(status: number): string {
  switch (status) {
    case 401:
    case 403:
      return 'upstream_auth_failed';
    case 402:
      return 'upstream_billing';
    case 404:
      return 'upstream_not_found';
    case 408:
    case 504:
      return 'upstream_timeout';
    case 413:
      return 'upstream_request_too_large';
    case 429:
      return 'upstream_rate_limited';
    case 503:
    case 529:
      return 'upstream_overloaded';
    default:
      return 'upstream_error';
  }
}
