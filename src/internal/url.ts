/**
 * Cheap splitting of a request URL, without building a `URL` object on the hot path.
 *
 * @module
 */

/**
 * Returns the path of an absolute URL, without query or fragment and without a trailing slash.
 *
 * @param url An absolute URL, as `Request.url` gives it.
 * @returns The path, e.g. `/mcp-lite/v1/calltools`.
 */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  let end = url.length;
  const query = url.indexOf("?", start);
  if (query !== -1) end = query;
  const hash = url.indexOf("#", start);
  if (hash !== -1 && hash < end) end = hash;
  if (end - start > 1 && url.charCodeAt(end - 1) === 47 /* / */) end--;
  return url.slice(start, end);
}

/**
 * Returns the host name of an absolute URL or of a `Host` header value, lower-cased, without the port
 * and without IPv6 brackets.
 *
 * @param value A URL (`http://h:1/…`) or a host (`h:1`, `[::1]:8000`).
 * @returns The host name.
 */
export function hostnameOf(value: string): string {
  let start = value.indexOf("//");
  start = start === -1 ? 0 : start + 2;
  let end = value.length;
  for (let i = start; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 47 || c === 63 || c === 35) { // / ? #
      end = i;
      break;
    }
  }
  let host = value.slice(start, end);
  const at = host.lastIndexOf("@");
  if (at !== -1) host = host.slice(at + 1);
  if (host.startsWith("[")) {
    const close = host.indexOf("]");
    return host.slice(1, close === -1 ? host.length : close).toLowerCase();
  }
  const colon = host.indexOf(":");
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
}
