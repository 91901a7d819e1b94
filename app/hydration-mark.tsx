"use client";
// Marks the page as running once React has hydrated it. Until then a submit button does nothing
// (globals.css): the forms submit through JavaScript, and a click before it runs would send a plain
// GET with the fields in the address (a password in the URL and the server's logs) and lose the input.
import { useEffect } from "react";

export function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
