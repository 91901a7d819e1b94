"use client";
// Who is looking at this wallet page, as this browser knows it: the recipient (a mark in local storage,
// set by the email's `?recipient=true`, see docs/api.md, The wallet page; or, as the server tells the
// page, a wallet session of the credential's recipient's email) or a guest. The server renders the
// guest's view and the page switches after reading the mark. Read once per page load and
// shared by the page's client parts; the parameter leaves the address bar on that first read.
import { startTransition, useEffect, useState } from "react";

export type Viewer = "recipient" | "guest";

const markKey = (publicId: string) => `cis.recipient.${publicId}`;
const known = new Map<string, Viewer>();

/** Reads (and on `?recipient=true`, sets) this browser's recipient mark, then drops the parameter from the address bar. */
function whoIsVisiting(publicId: string): Viewer {
  const url = new URL(window.location.href);
  try {
    if (url.searchParams.get("recipient") === "true") window.localStorage.setItem(markKey(publicId), "1");
  } catch {
    /* storage unavailable (private mode): the visitor counts as a guest */
  }
  if (url.searchParams.has("recipient")) {
    url.searchParams.delete("recipient");
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  }
  try {
    return window.localStorage.getItem(markKey(publicId)) === "1" ? "recipient" : "guest";
  } catch {
    return "guest";
  }
}

/** `signedInRecipient`: the server found the visitor signed in to the wallet as this credential's recipient. */
export function viewerOf(publicId: string, signedInRecipient = false): Viewer {
  if (!known.has(publicId)) known.set(publicId, whoIsVisiting(publicId));
  if (signedInRecipient) known.set(publicId, "recipient");
  return known.get(publicId)!;
}

/**
 * The viewer, or null before the page has read the mark (the server's render and the first client
 * render). The switch to the recipient's view is a transition: React renders the recipient's tools
 * in slices that yield to the browser instead of one long task right after hydration.
 */
export function useViewer(publicId: string, signedInRecipient = false): Viewer | null {
  const [viewer, setViewer] = useState<Viewer | null>(null);
  useEffect(() => {
    const known = viewerOf(publicId, signedInRecipient);
    startTransition(() => setViewer(known));
  }, [publicId, signedInRecipient]);
  return viewer;
}

/** Records one of the spec's event types for this credential (no token; the server adds the time). */
export function recordWalletEvent(publicId: string, eventType: string): void {
  void fetch("/api/wallet/events", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ publicId, eventType, triggeredBy: viewerOf(publicId) }),
    keepalive: true,
  }).catch(() => undefined);
}
