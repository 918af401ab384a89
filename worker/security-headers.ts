/**
 * The security headers of every response. The worker adds them to API answers; the build writes
 * the same map into dist/client/_headers so Workers Static Assets sends them with HTML and files.
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  // Tag Manager loads only after cookie consent (and only when GTM_ID is configured).
  "script-src 'self' https://www.googletagmanager.com",
  // Radix and React set inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self'",
  "connect-src 'self' https://www.google-analytics.com https://*.google-analytics.com",
  'frame-src https://www.google.com',
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

export const securityHeaders: Record<string, string> = {
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};
