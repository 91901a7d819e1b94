"use client";
// The live preview: the server's renderer draws the unsaved draft (debounced while it changes), and
// answers with the problems that would keep it from being saved. No second renderer runs in the
// browser, so what the editor shows is what credentials will look like.
import { useEffect, useRef, useState } from "react";
import type { DesignDocument } from "@/lib/render/document";
import { previewDraftAction } from "../actions";
import { readPreviewAnswer, type Problems, type RenderedPreview } from "./server-answers";

const PREVIEW_DEBOUNCE_MS = 250;
const BUSY_RETRY_MS = 700;

export type DraftPreview = {
  preview: RenderedPreview;
  /** Why the draft cannot be saved, by document path; a refused save reports here too (`showProblems`). */
  problems: Problems;
  showProblems: (problems: Problems) => void;
  /** The preview could not be made for a reason other than the draft (connection, server). */
  failure: string | null;
  rendering: boolean;
};

export function useDraftPreview({
  designId,
  doc,
  sampleName,
  savedPreviewUrl,
}: {
  designId: string;
  doc: DesignDocument;
  sampleName: string;
  savedPreviewUrl: string;
}): DraftPreview {
  const [preview, setPreview] = useState<RenderedPreview>({ src: savedPreviewUrl, warnings: [], overflows: [], sample: null });
  const [problems, setProblems] = useState<Problems>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [rendering, setRendering] = useState(false);
  const requestSeq = useRef(0);
  // The saved design's preview is shown at once when the editor opens; the draft's (with the long
  // sample values, and what overflows with them) follows as soon as it is made.
  const firstRender = useRef(true);
  // Bumped to ask again for the same draft (after the server said "busy").
  const [retry, setRetry] = useState(0);

  useEffect(() => {
    const delay = firstRender.current ? 0 : PREVIEW_DEBOUNCE_MS;
    firstRender.current = false;
    const timer = setTimeout(
      () =>
        void (async () => {
          const seq = ++requestSeq.current;
          setRendering(true);
          try {
            const answer = readPreviewAnswer(await previewDraftAction(designId, doc, sampleName));
            if (seq !== requestSeq.current) return; // a newer draft is on its way
            if (answer?.kind === "rendered") {
              setPreview({ src: answer.src, warnings: answer.warnings, overflows: answer.overflows, sample: answer.sample });
              setProblems({});
              setFailure(null);
            } else if (answer?.kind === "refused") {
              setProblems(answer.problems);
              setFailure(null);
            } else if (answer?.kind === "busy") {
              setTimeout(() => setRetry((n) => n + 1), BUSY_RETRY_MS);
            } else if (answer?.kind === "failed") {
              setFailure(answer.message);
            }
          } catch {
            if (seq === requestSeq.current) setFailure("The preview could not be reached; check your connection.");
          } finally {
            if (seq === requestSeq.current) setRendering(false);
          }
        })(),
      delay,
    );
    return () => clearTimeout(timer);
  }, [doc, sampleName, designId, retry]);

  return { preview, problems, showProblems: setProblems, failure, rendering };
}
