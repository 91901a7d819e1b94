// The painter interface: one method per kind of prepared element, plus the background. A painter is a
// mapping from kinds to methods, so a new element kind that a painter does not draw is a type error
// in that painter. Painters write prepared data out; they do not compute geometry (see prepared.ts).
import type { TextRun } from "./glyph-outlines";
import type { BackgroundPlan, ElementPlan, TextPlan } from "./prepared";

export type Painter<R> = { background(plan: BackgroundPlan): R } & {
  [K in ElementPlan["kind"]]: (plan: Extract<ElementPlan, { kind: K }>) => R;
};

/** Draws one element with the painter's method for its kind. */
export function paint<R>(painter: Painter<R>, plan: ElementPlan): R {
  return (painter[plan.kind] as (plan: ElementPlan) => R).call(painter, plan);
}

/** The runs of a text that have glyphs to draw (a run of only emoji or spaces has none). */
export function inkedRuns(plan: TextPlan): TextRun[] {
  return plan.runs.filter((run) => run.outline.d);
}
