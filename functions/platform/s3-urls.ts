/**
 * Recognizes the presigned URLs this deployment's bucket issues (API §0.4: download URLs are
 * accepted back as document URLs, read from storage without any outbound request). Pure: no SDK.
 */
export function s3KeyOfUrl(url: string, bucket: string, endpoint: string | undefined): string | undefined {
  let parsed: URL;
  let path: string;
  try {
    parsed = new URL(url);
    // A malformed escape (%E0%A4%A) names no object this bucket issued.
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return undefined;
  }
  if (endpoint) {
    // Emulator or custom endpoint: path-style http(s)://host:port/<bucket>/<key>.
    const server = new URL(endpoint);
    const sameServer = parsed.port === server.port && ['127.0.0.1', 'localhost', server.hostname].includes(parsed.hostname);
    if (!sameServer || !path.startsWith(`/${bucket}/`)) return undefined;
    return path.slice(bucket.length + 2);
  }
  if (parsed.protocol !== 'https:') return undefined;
  const escaped = bucket.replace(/[.]/g, '\\.');
  if (new RegExp(`^${escaped}\\.s3[.-]([a-z0-9-]+\\.)?amazonaws\\.com$`).test(parsed.hostname)) return path.slice(1);
  if (/^s3[.-]([a-z0-9-]+\.)?amazonaws\.com$/.test(parsed.hostname) && path.startsWith(`/${bucket}/`)) return path.slice(bucket.length + 2);
  return undefined;
}
