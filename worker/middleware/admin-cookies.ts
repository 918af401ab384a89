import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../env';
import { type CookieToSet, sessionCookie, type SignInRequest } from '../services/admin-auth';
import { clientNetwork } from './client-network';

// The admin's cookies, read and written here only (services/admin-auth says what they hold, the
// routes and the admin guard put them on the answer): the session's and the known devices'.

/** What admin-auth's use cases read off a request: its address, network, cookies, browser and country. */
export function adminRequest(c: Context<AppEnv>): SignInRequest {
  return {
    url: c.req.url,
    network: clientNetwork(c),
    cookies: getCookie(c),
    userAgent: c.req.header('user-agent'),
    country: (c.req.raw.cf as { country?: unknown } | undefined)?.country,
  };
}

/** Sets the cookies a use case returned, in order: HttpOnly, SameSite=Strict, for the whole site. */
export function setAdminCookies(c: Context<AppEnv>, cookies: CookieToSet[]): void {
  for (const { name, value, secure, maxAge } of cookies) setCookie(c, name, value, { httpOnly: true, secure, sameSite: 'Strict', path: '/', maxAge });
}

/** The session cookie's token on this request, if any. */
export const readSessionCookie = (c: Context<AppEnv>): string | undefined => getCookie(c, sessionCookie(c.req.url).name);

export function clearSessionCookie(c: Context<AppEnv>): void {
  const { name, secure } = sessionCookie(c.req.url);
  deleteCookie(c, name, { path: '/', secure, httpOnly: true, sameSite: 'Strict' });
}
