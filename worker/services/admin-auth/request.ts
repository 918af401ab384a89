// What admin-auth's use cases know of the request, as plain values the route picks
// (worker/middleware/admin-cookies.ts adminRequest): no use case reads the request itself.

/** A request's address, its network key (limits/client-ip.ts networkOf) and its cookies, by name. */
export interface AdminRequest {
  url: string;
  network: string;
  cookies: Record<string, string>;
}

/** The signed-in admin a use case acts for, as the audit trail records them (c.var.adminUser), and the request's network. */
export interface Acting {
  id: number;
  username: string;
  network: string;
}
