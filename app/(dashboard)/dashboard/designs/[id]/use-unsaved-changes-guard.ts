"use client";
// Leaving with unsaved changes asks first: closing the tab (beforeunload) and the dashboard's own
// links, which navigate on the client and so never fire beforeunload.
import { useEffect } from "react";

export function useUnsavedChangesGuard(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    const onLinkClick = (e: MouseEvent) => {
      const link = e.target instanceof Element ? e.target.closest("a[href]") : null;
      if (!link || link.getAttribute("target") === "_blank" || e.defaultPrevented) return;
      if (!window.confirm("Leave the editor? Your unsaved changes are kept in this browser and offered back when you return.")) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", warn);
    document.addEventListener("click", onLinkClick, true);
    return () => {
      window.removeEventListener("beforeunload", warn);
      document.removeEventListener("click", onLinkClick, true);
    };
  }, [dirty]);
}
