// Here, not in middleware/https-only.ts, because the admin session's cookies ask it too: services
// never import middleware (docs/architecture.md, "Lint").
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The machine's own address: local development serves plain HTTP (README, "Set up and run"). */
export function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname);
}
