import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { hashIp, networkOf } from '../services/limits/client-ip';

// What a route picks off the request for the limits and the audit trail: the visitor's network
// (CF-Connecting-IP as services/limits/client-ip.ts networkOf keys it) and its keyed hash. The
// services take these as plain strings; only routes and middleware read the request.

/** This request's network key: CF-Connecting-IP, IPv4 as it is, IPv6 as its /64 ("unknown" without it). */
export const clientNetwork = (c: Context<AppEnv>): string => networkOf(c.req.header('cf-connecting-ip'));

/** The hashed network of this request: the key every per-visitor limit counts under. */
export const networkHash = (c: Context<AppEnv>): Promise<string> => hashIp(clientNetwork(c), c.env.JWT_SECRET);
