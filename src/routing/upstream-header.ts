/** One header of an upstream answer as a string: the first value, where the server sent it twice. */
export function upstreamHeader(headers: Readonly<Record<string, string | string[] | undefined>>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
