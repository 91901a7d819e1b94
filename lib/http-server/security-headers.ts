// The security headers of every response the app's server (server.ts) sends: pages, /v1, previews,
// static files and the server's own error answers. This is the one place that defines them.
import { randomBytes } from "node:crypto";

export type SecurityContext = {
  /** The request's path (no query). */
  path: string;
  /** The client reached us over HTTPS (lib/net/client-connection.ts decides, respecting TRUST_PROXY). */
  https: boolean;
  /** A fresh, unguessable value per request (see newNonce). */
  nonce: string;
  /** `npm run dev`: React's development build evaluates code and hot reload opens a WebSocket. */
  dev: boolean;
  /** Origins images may come from besides this one: PUBLIC_URL's, where previews live when the wallet
   *  is served under another WALLET_URL. */
  imageOrigins: string[];
};

/** The wallet page of one credential, `/credentials/<publicId>`: meant to be embedded elsewhere. */
const WALLET_PAGE = /^\/credentials\/[^/]+\/?$/;

/** Framing is refused except where embedding is the point: the wallet page (its embed snippet) and
 *  previews (images and PDFs, which a page around them cannot trick anyone into clicking). */
export function embeddable(path: string): boolean {
  return WALLET_PAGE.test(path) || path.startsWith("/previews/");
}

export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The Content-Security-Policy. Scripts: Next's pages carry inline scripts (the React Server Components
 * payload and bootstrap), so scripts are allowed by a per-request nonce, which Next reads from the
 * request's own Content-Security-Policy header and puts on every script tag it writes (server.ts sets
 * it). That needs each page rendered per request, which every page here already is (they read the
 * database or the session); the root layout opts in explicitly so that a static page added later
 * cannot silently lose its scripts. 'strict-dynamic' lets those scripts load Next's chunks; 'self'
 * stays for browsers without it. 'unsafe-inline' for scripts was the alternative and would let any
 * injected markup run. Styles: React's `style` attributes (the design editor positions everything
 * with them) cannot carry a nonce, so inline styles are allowed; they cannot run code.
 */
export function contentSecurityPolicy(context: SecurityContext): string {
  const images = ["'self'", "data:", "blob:", ...context.imageOrigins];
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${context.nonce}' 'strict-dynamic'${context.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${images.join(" ")}`,
    "font-src 'self' data:",
    `connect-src 'self'${context.dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${embeddable(context.path) ? "*" : "'none'"}`,
  ];
  return directives.join("; ");
}

export function securityHeaders(context: SecurityContext): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(context),
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Content-Type-Options": "nosniff",
    // For browsers that predate frame-ancestors.
    ...(embeddable(context.path) ? {} : { "X-Frame-Options": "DENY" }),
    // Only over HTTPS: a browser ignores it on plain HTTP anyway, and a local `npm start` must keep
    // working on http://localhost. No includeSubDomains: other hosts of the same domain are not ours.
    ...(context.https ? { "Strict-Transport-Security": "max-age=31536000" } : {}),
  };
}
