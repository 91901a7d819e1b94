"use client";
// The design editor: a layer list and the images on the left, the canvas in the middle, the
// selected element's properties on the right. Every change is previewed by the server's renderer
// (debounced) and checked by the same rules as the API; Save writes a new revision. The state lives
// in the use-* hooks next to this file; this component wires them to the layout.
import Link from "next/link";
import { useMemo, useState } from "react";
import type { DesignDocument, DesignElement } from "@/lib/render/document";
import type { EditorAsset } from "../actions";
import { CanvasInspector, customAttributesOf, ElementInspector, type CustomAttributeChoice } from "./inspector";
import { ArrangeToolbar } from "./arrange-toolbar";
import {
  alignElements,
  canvasOf,
  centerElement,
  distributeElements,
  duplicateElement,
  elementLabel,
  moveElement,
  newElement,
  placeInFreeSpace,
  scaleToCanvas,
  type AlignEdge,
  type Axis,
  type ElementType,
} from "./geometry";
import { ImageLibrary } from "./image-library";
import { LONG_SAMPLE_SCRIPTS, PreviewNotes } from "./preview-notes";
import { SaveStatus } from "./save-status";
import { elementsWithProblems } from "./server-answers";
import { Stage } from "./stage";
import { StoredDraftBanner } from "./stored-draft-banner";
import { useDesignHistory } from "./use-design-history";
import { useDraftPreview } from "./use-draft-preview";
import { useEditorKeys } from "./use-editor-keys";
import { useSaveDesign } from "./use-save-design";
import { useStoredDraft } from "./use-stored-draft";
import { useUnsavedChangesGuard } from "./use-unsaved-changes-guard";
import styles from "./editor.module.css";
import dashboardStyles from "../../dashboard.module.css";

export type EditorDesign = {
  id: string;
  name: string;
  type: "certificate" | "badge";
  updatedAt: string;
  previewUrl: string;
  document: DesignDocument;
  assets: EditorAsset[];
};

/** The schema's limit on elements per design. */
const MAX_ELEMENTS = 200;

export function DesignEditor({
  design,
  organizationAttributes,
}: {
  design: EditorDesign;
  organizationAttributes: CustomAttributeChoice[];
}) {
  const { doc, docRef, change, remember, changeDuringGesture, undo: undoDocument, redo: redoDocument } = useDesignHistory(design.document);
  const [name, setName] = useState(design.name);
  // The selected elements' indices in the order they were picked; the inspector shows the element
  // when exactly one is selected, the arrange tools act on all of them.
  const [selection, setSelection] = useState<number[]>([]);
  const selected = selection.length === 1 ? selection[0]! : null;
  const setSelected = (index: number | null) => setSelection(index === null ? [] : [index]);
  const select = (index: number | null, additive = false) => {
    if (index === null) return setSelection([]);
    if (!additive) return setSelection([index]);
    setSelection((s) => (s.includes(index) ? s.filter((i) => i !== index) : [...s, index]));
  };
  const selectMany = (indices: number[], additive: boolean) =>
    setSelection((s) => (additive ? [...s, ...indices.filter((i) => !s.includes(i))] : indices));
  const [assets, setAssets] = useState<EditorAsset[]>(design.assets);
  const [sampleName, setSampleName] = useState("");
  const {
    preview,
    problems,
    showProblems,
    failure: previewFailure,
    rendering,
  } = useDraftPreview({ designId: design.id, doc, sampleName, savedPreviewUrl: design.previewUrl });
  const {
    dirty,
    saving,
    save,
    message: saveMessage,
    nameError,
    base,
    rebase,
    updatedAt,
    imagesChanged,
  } = useSaveDesign({ designId: design.id, opened: design, name, doc, docRef, showProblems });
  const {
    offered: storedDraft,
    take: takeStoredDraft,
    discard: discardStoredDraft,
  } = useStoredDraft({ designId: design.id, opened: design, draft: { base, name, document: doc }, dirty });
  useUnsavedChangesGuard(dirty);
  const canvas = canvasOf(doc);

  // ---- Edits: each one an undo step; the selection follows the element it is about ----------
  const keepSelectionIn = (shown: DesignDocument | null) => {
    if (shown) setSelection((s) => s.filter((i) => i < shown.elements.length));
  };
  const undo = () => keepSelectionIn(undoDocument());
  const redo = () => keepSelectionIn(redoDocument());
  const setElement = (index: number, element: DesignElement, coalesce?: string) => {
    const current = docRef.current;
    change({ ...current, elements: current.elements.map((e, i) => (i === index ? element : e)) }, coalesce);
  };
  const addElement = (element: DesignElement) => {
    if (doc.elements.length >= MAX_ELEMENTS) return;
    change({ ...doc, elements: [...doc.elements, element] });
    setSelected(doc.elements.length);
  };
  /** A new element goes where it covers nothing, near the last one added (the top layer). */
  const addInFreeSpace = (element: DesignElement) =>
    addElement(placeInFreeSpace(element, doc.elements, canvas, doc.elements[doc.elements.length - 1] ?? null));
  const removeElements = (indices: readonly number[]) => {
    change({ ...doc, elements: doc.elements.filter((_, i) => !indices.includes(i)) });
    setSelected(null);
  };
  const removeElement = (index: number) => removeElements([index]);
  /** Several elements changed at once (a group drag, a nudge, align, distribute): one undo step. */
  const changeElements = (update: (elements: DesignElement[]) => DesignElement[], coalesce?: string) => {
    const current = docRef.current;
    change({ ...current, elements: update(current.elements) }, coalesce);
  };
  const align = (edge: AlignEdge) => changeElements((els) => alignElements(els, selection, edge, canvas));
  const distribute = (axis: Axis) => changeElements((els) => distributeElements(els, selection, axis, canvas));
  const imageElementOf = (asset: string) => doc.elements.findIndex((el) => el.type === "image" && el.asset === asset);
  /** An image goes on the canvas once: placing one that is already there selects it (Duplicate makes a copy). */
  const placeImage = (asset: EditorAsset) => {
    const shown = imageElementOf(asset.name);
    if (shown >= 0) setSelected(shown);
    else addInFreeSpace(newElement("image", canvas, { asset: asset.name, width: asset.width, height: asset.height }));
  };
  const moveLayer = (index: number, by: -1 | 1) => {
    const to = index + by;
    if (to < 0 || to >= doc.elements.length) return;
    const elements = [...doc.elements];
    [elements[index], elements[to]] = [elements[to]!, elements[index]!];
    change({ ...doc, elements });
    setSelected(to);
  };
  const changeCanvas = (next: DesignDocument["canvas"]) => {
    const to = canvasOf({ canvas: next });
    change({ ...doc, canvas: next, elements: scaleToCanvas(doc.elements, canvas, to) });
  };
  const restoreDraft = () => {
    const draft = takeStoredDraft();
    if (!draft) return;
    change(draft.document);
    setName(draft.name);
    rebase(draft.base);
  };

  const selectedElement = selected !== null ? doc.elements[selected] : undefined;
  useEditorKeys({
    save: () => {
      if (!saving && dirty) void save();
    },
    undo,
    redo,
    selectAll: () => setSelection(doc.elements.map((_, i) => i)),
    selection:
      selection.length > 0
        ? {
            size: selection.length,
            remove: () => removeElements(selection),
            duplicate: () => {
              if (selectedElement) addElement(duplicateElement(selectedElement, canvas));
            },
            deselect: () => setSelected(null),
            nudge: (dx, dy) =>
              changeElements(
                (els) => els.map((el, i) => (selection.includes(i) ? moveElement(el, dx, dy, canvas) : el)),
                `nudge-${selection.join(",")}`,
              ),
            align,
            distribute,
          }
        : null,
  });

  const invalid = useMemo(() => elementsWithProblems(problems), [problems]);
  const overflowing = useMemo(() => new Set(preview.overflows.map((o) => o.index)), [preview.overflows]);
  const selectedSet = useMemo(() => new Set(selection), [selection]);
  const customAttributes = useMemo(() => customAttributesOf(doc, organizationAttributes), [doc, organizationAttributes]);
  const full = doc.elements.length >= MAX_ELEMENTS;
  const add = (type: ElementType) => addInFreeSpace(newElement(type, canvas));
  const listedProblems = Object.entries(problems).filter(([path]) => path !== "recipientName");

  return (
    // data-workspace: the dashboard turns its side bar into a top bar, so the canvas gets the width.
    <div className={styles.editor} data-workspace="wide">
      <h1 className={dashboardStyles.visuallyHidden}>Design editor: {name || "untitled"}</h1>
      <header className={styles.toolbar}>
        <Link href="/dashboard/designs">← Designs</Link>
        <div className={styles.nameField}>
          <label htmlFor="design-name">Design name</label>
          <input id="design-name" value={name} aria-invalid={nameError ? true : undefined} onChange={(e) => setName(e.target.value)} />
          {nameError && <span className={styles.fieldError}>{nameError}</span>}
        </div>
        <div className={styles.nameField}>
          <label htmlFor="sample-name">Preview with recipient name</label>
          <input
            id="sample-name"
            placeholder="Long sample names"
            value={sampleName}
            aria-invalid={problems.recipientName ? true : undefined}
            aria-describedby="sample-name-note"
            onChange={(e) => setSampleName(e.target.value)}
          />
          {problems.recipientName ? (
            <span id="sample-name-note" className={styles.fieldError}>
              {problems.recipientName}
            </span>
          ) : (
            <span id="sample-name-note" className={styles.sampleNote} title={preview.sample?.recipientName}>
              {sampleName.trim()
                ? "Only this name is tried."
                : preview.sample
                  ? `Shown: ${preview.sample.recipientName}; long names in ${LONG_SAMPLE_SCRIPTS} scripts are tried.`
                  : "Empty: long names in several scripts are tried."}
            </span>
          )}
        </div>
        <div className={styles.toolbarActions}>
          <button type="button" className={styles.small} onClick={undo} title="Undo (Ctrl+Z)">
            Undo
          </button>
          <button type="button" className={styles.small} onClick={redo} title="Redo (Ctrl+Shift+Z)">
            Redo
          </button>
          <button type="button" className={styles.save} onClick={() => void save()} disabled={saving || !dirty} title="Save (Ctrl+S)">
            {saving ? "Saving…" : dirty ? "Save" : "Saved"}
          </button>
        </div>
      </header>
      {storedDraft && <StoredDraftBanner draft={storedDraft} onRestore={restoreDraft} onDiscard={discardStoredDraft} />}
      <SaveStatus message={saveMessage} dirty={dirty} updatedAt={updatedAt} onOverwrite={() => void save(true)} />

      <div className={styles.columns}>
        <aside className={styles.left} aria-label="Elements and layers">
          <section>
            <h2>Add</h2>
            <div className={styles.addGrid}>
              {(
                [
                  ["text", "Text"],
                  ["rect", "Rectangle"],
                  ["line", "Line"],
                  ["border", "Border"],
                  ["qr", "QR code"],
                ] as const
              ).map(([type, label]) => (
                <button key={type} type="button" onClick={() => add(type)} disabled={full}>
                  {label}
                </button>
              ))}
            </div>
            {full && <p className={styles.hint}>A design holds at most {MAX_ELEMENTS} elements.</p>}
          </section>
          <section>
            <h2>Layers</h2>
            {doc.elements.length === 0 && <p className={styles.hint}>Nothing yet: add an element above.</p>}
            <ol className={styles.layers} aria-label="Layers, top last">
              {doc.elements.map((el, i) => (
                <li key={i}>
                  <button
                    type="button"
                    aria-pressed={selectedSet.has(i)}
                    className={invalid.has(i) ? styles.layerInvalid : overflowing.has(i) ? styles.layerOverflowing : undefined}
                    onClick={(e) => select(i, e.shiftKey)}
                    title={elementLabel(el)}
                  >
                    {/* Rectangles are told apart by their colour. */}
                    {el.type === "rect" && (
                      <span
                        className={styles.swatch}
                        style={{ background: el.fill ?? "transparent", borderColor: el.stroke ?? "#9ca3af" }}
                        aria-hidden="true"
                      />
                    )}
                    {elementLabel(el)}
                  </button>
                </li>
              ))}
            </ol>
          </section>
          <ImageLibrary
            designId={design.id}
            usedBy={(asset) => {
              if (doc.background.image?.asset === asset) return "the background";
              const i = doc.elements.findIndex((el) => el.type === "image" && el.asset === asset);
              return i >= 0 ? elementLabel(doc.elements[i]!) : null;
            }}
            assets={assets}
            onImagesChanged={(change) => {
              setAssets(change.assets);
              imagesChanged(change);
            }}
            onCanvas={(asset) => imageElementOf(asset) >= 0}
            onPlace={placeImage}
          />
        </aside>

        <div className={styles.center}>
          <ArrangeToolbar selected={selection.length} onAlign={align} onDistribute={distribute} />
          <Stage
            canvas={canvas}
            elements={doc.elements}
            selected={selectedSet}
            previewSrc={preview.src}
            previewAlt={`${name} with sample values`}
            rendering={rendering}
            invalid={invalid}
            overflowing={overflowing}
            onSelect={select}
            onSelectMany={selectMany}
            onGestureStart={() => remember()}
            onElementsChange={(changes) => changeDuringGesture((d) => ({ ...d, elements: d.elements.map((e, j) => changes.get(j) ?? e) }))}
          />
          <p className={styles.hint}>
            {canvas.width} × {canvas.height} pt. Drag to move, drag the handles to resize, arrow keys nudge (Shift: 10 pt), Delete removes,
            Ctrl+D duplicates. Shift+click or drag across the canvas selects several; Ctrl+A selects all.
          </p>
          <PreviewNotes
            failure={previewFailure}
            problems={listedProblems}
            warnings={preview.warnings}
            overflows={preview.overflows}
            shownName={preview.sample?.recipientName ?? null}
            elements={doc.elements}
            onSelect={setSelected}
            onTryName={setSampleName}
          />
        </div>

        <aside className={styles.right} aria-label="Properties">
          {selection.length > 1 ? (
            <div className={styles.panel}>
              <h2>{selection.length} elements selected</h2>
              <p className={styles.hint}>
                Align them with the buttons above the canvas (to each other), distribute three or more with equal gaps, drag one to move
                them all, or press Delete to remove them. Click one to edit it alone.
              </p>
              <button type="button" className={styles.linkish} onClick={() => setSelected(null)}>
                Canvas settings
              </button>
            </div>
          ) : selectedElement && selected !== null ? (
            <>
              <div className={styles.elementActions}>
                <button
                  type="button"
                  className={styles.small}
                  onClick={() => setElement(selected, centerElement(selectedElement, "x", canvas))}
                  disabled={selectedElement.type === "border"}
                >
                  Centre ↔
                </button>
                <button
                  type="button"
                  className={styles.small}
                  onClick={() => setElement(selected, centerElement(selectedElement, "y", canvas))}
                  disabled={selectedElement.type === "border"}
                >
                  Centre ↕
                </button>
                <button
                  type="button"
                  className={styles.small}
                  onClick={() => moveLayer(selected, 1)}
                  disabled={selected === doc.elements.length - 1}
                >
                  Forward
                </button>
                <button type="button" className={styles.small} onClick={() => moveLayer(selected, -1)} disabled={selected === 0}>
                  Backward
                </button>
                <button type="button" className={styles.small} onClick={() => addElement(duplicateElement(selectedElement, canvas))}>
                  Duplicate
                </button>
                <button type="button" className={styles.danger} onClick={() => removeElement(selected)}>
                  Delete
                </button>
              </div>
              <ElementInspector
                key={selected}
                element={selectedElement}
                index={selected}
                errors={problems}
                assets={assets}
                customAttributes={customAttributes}
                onChange={(el, coalesce) => setElement(selected, el, coalesce)}
              />
              <button type="button" className={styles.linkish} onClick={() => setSelected(null)}>
                Canvas settings
              </button>
            </>
          ) : (
            <CanvasInspector
              doc={doc}
              type={design.type}
              errors={problems}
              assets={assets}
              onCanvasChange={changeCanvas}
              onChange={change}
            />
          )}
        </aside>
      </div>
    </div>
  );
}
