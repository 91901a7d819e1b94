// How the editor reads the answers of its server actions, kept apart from the hooks that call them
// so the rules (which answer means "busy, ask again", which field errors belong to the document)
// are tested without a browser or a server.
import type { FormState } from "@/lib/dashboard/form-state";
import type { TextOverflow } from "@/lib/designs/draft-preview";
import type { DraftPreviewResult } from "../actions";

/** Field paths relative to the document ("elements[2].font.color") mapped to the server's message. */
export type Problems = Record<string, string>;

/** What a rendered preview shows: the picture, warnings, the texts that overflow and with which name. */
export type RenderedPreview = {
  src: string;
  warnings: string[];
  overflows: TextOverflow[];
  /** The values the picture shows; null for the saved design's preview shown on opening. */
  sample: { recipientName: string; groupName: string } | null;
};

export type PreviewAnswer =
  | ({ kind: "rendered" } & RenderedPreview)
  /** The draft is not one a save would accept: the messages go next to the fields. */
  | { kind: "refused"; problems: Problems }
  /** Other editors of the organization are rendering: the same draft is asked for again shortly. */
  | { kind: "busy" }
  | { kind: "failed"; message: string };

/** What the draft preview action's answer means for the editor; null for an answer that says nothing. */
export function readPreviewAnswer(answer: FormState<DraftPreviewResult>): PreviewAnswer | null {
  if (answer.status === "ok") {
    const { png, warnings, overflows, sample } = answer.result;
    return { kind: "rendered", src: png, warnings, overflows, sample };
  }
  if (answer.status !== "error") return null;
  if (Object.keys(answer.fieldErrors).length) return { kind: "refused", problems: answer.fieldErrors };
  // The preview's rate limit (lib/designs/draft-preview.ts) is the one error that goes away by itself.
  if (answer.message.startsWith("Too many previews")) return { kind: "busy" };
  return { kind: "failed", message: answer.message };
}

/** A refused save's field errors on the document ("document.elements[0].x"), with paths as the preview gives them. */
export function documentProblemsOf(fieldErrors: Record<string, string>): Problems {
  const problems: Problems = {};
  for (const [path, message] of Object.entries(fieldErrors)) {
    if (path.startsWith("document.")) problems[path.slice("document.".length)] = message;
  }
  return problems;
}

/** The elements (by index) that at least one problem is about, to mark them on the canvas and in the layers. */
export function elementsWithProblems(problems: Problems): Set<number> {
  const set = new Set<number>();
  for (const path of Object.keys(problems)) {
    const index = problemElementIndex(path);
    if (index !== null) set.add(index);
  }
  return set;
}

/** The element a problem's path is about ("elements[3].font.size" → 3), or null for the canvas and the rest. */
export function problemElementIndex(path: string): number | null {
  const m = /^elements\[(\d+)\]/.exec(path);
  return m ? Number(m[1]) : null;
}

/** A renderer warning about one element ("element 3: text does not fit its box"), or null for the rest. */
export function readWarning(warning: string): { index: number; message: string } | null {
  const m = /^element (\d+): (.*)$/.exec(warning);
  return m ? { index: Number(m[1]), message: m[2]! } : null;
}
