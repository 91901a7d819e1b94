"use client";
// The design editor: a layer list and the images on the left, the canvas in the middle, the
// selected element's properties on the right. Every change is previewed by the server's renderer
// (debounced) and checked by the same rules as the API; Save writes a new revision.
import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { DesignDocument, DesignElement } from "@/lib/designs/document";
import { previewDraftAction, removeDesignImageAction, saveDesignAction, uploadDesignImageAction, type EditorAsset } from "../actions";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import { CanvasInspector, customAttributesOf, ElementInspector } from "./inspector";
import { canvasOf, centerElement, duplicateElement, elementLabel, moveElement, newElement, scaleToCanvas, type ElementType } from "./geometry";
import { Stage } from "./stage";
import styles from "./editor.module.css";

export type EditorDesign = {
  id: string;
  name: string;
  type: "certificate" | "badge";
  updatedAt: string;
  previewUrl: string;
  document: DesignDocument;
  assets: EditorAsset[];
};

const PREVIEW_DEBOUNCE_MS = 250;
const HISTORY_LIMIT = 100;

type Saved = { name: string; document: string };

export function DesignEditor({ design }: { design: EditorDesign }) {
  const [doc, setDoc] = useState<DesignDocument>(design.document);
  const [name, setName] = useState(design.name);
  const [selected, setSelected] = useState<number | null>(null);
  const [assets, setAssets] = useState<EditorAsset[]>(design.assets);
  const [saved, setSaved] = useState<Saved>({ name: design.name, document: JSON.stringify(design.document) });
  const [updatedAt, setUpdatedAt] = useState(design.updatedAt);
  const [sampleName, setSampleName] = useState("");
  const canvas = canvasOf(doc);

  // Undo history: one step per gesture or per burst of typing into one field.
  const history = useRef<{ past: DesignDocument[]; future: DesignDocument[]; lastKey: string | null; lastAt: number }>({ past: [], future: [], lastKey: null, lastAt: 0 });
  const docRef = useRef(doc);
  docRef.current = doc;
  const remember = useCallback((coalesce?: string) => {
    const h = history.current;
    const now = Date.now();
    if (coalesce && coalesce === h.lastKey && now - h.lastAt < 1500) {
      h.lastAt = now;
      return;
    }
    h.past.push(docRef.current);
    if (h.past.length > HISTORY_LIMIT) h.past.shift();
    h.future = [];
    h.lastKey = coalesce ?? null;
    h.lastAt = now;
  }, []);
  const change = useCallback(
    (next: DesignDocument, coalesce?: string) => {
      remember(coalesce);
      setDoc(next);
    },
    [remember],
  );
  const undo = useCallback(() => {
    const h = history.current;
    const previous = h.past.pop();
    if (!previous) return;
    h.future.push(docRef.current);
    h.lastKey = null;
    setDoc(previous);
    setSelected((s) => (s !== null && s < previous.elements.length ? s : null));
  }, []);
  const redo = useCallback(() => {
    const h = history.current;
    const next = h.future.pop();
    if (!next) return;
    h.past.push(docRef.current);
    h.lastKey = null;
    setDoc(next);
    setSelected((s) => (s !== null && s < next.elements.length ? s : null));
  }, []);

  const setElement = useCallback((index: number, element: DesignElement, coalesce?: string) => {
    const current = docRef.current;
    change({ ...current, elements: current.elements.map((e, i) => (i === index ? element : e)) }, coalesce);
  }, [change]);
  const addElement = (element: DesignElement) => {
    change({ ...doc, elements: [...doc.elements, element] });
    setSelected(doc.elements.length);
  };
  const removeElement = (index: number) => {
    change({ ...doc, elements: doc.elements.filter((_, i) => i !== index) });
    setSelected(null);
  };
  const moveLayer = (index: number, by: -1 | 1) => {
    const to = index + by;
    if (to < 0 || to >= doc.elements.length) return;
    const elements = [...doc.elements];
    [elements[index], elements[to]] = [elements[to]!, elements[index]!];
    change({ ...doc, elements });
    setSelected(to);
  };

  // ---- Live preview, by the server's renderer ----------------------------------------------
  const [preview, setPreview] = useState<{ src: string; warnings: string[] }>({ src: design.previewUrl, warnings: [] });
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [previewFailure, setPreviewFailure] = useState<string | null>(null);
  const [rendering, setRendering] = useState(false);
  const requestSeq = useRef(0);
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const timer = setTimeout(async () => {
      const seq = ++requestSeq.current;
      setRendering(true);
      try {
        const result = await previewDraftAction(design.id, doc, sampleName);
        if (seq !== requestSeq.current) return; // a newer draft is on its way
        if (result.status === "ok") {
          setPreview({ src: result.result.png, warnings: result.result.warnings });
          setProblems({});
          setPreviewFailure(null);
        } else if (result.status === "error") {
          setProblems(result.fieldErrors);
          setPreviewFailure(Object.keys(result.fieldErrors).length ? null : result.message);
        }
      } catch {
        if (seq === requestSeq.current) setPreviewFailure("The preview could not be reached; check your connection.");
      } finally {
        if (seq === requestSeq.current) setRendering(false);
      }
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [doc, sampleName, design.id]);

  // ---- Saving ------------------------------------------------------------------------------
  const [saving, setSaving] = useState(false);
  const [saveMessage, setSaveMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const dirty = saved.name !== name || saved.document !== JSON.stringify(doc);
  const save = useCallback(async () => {
    setSaving(true);
    setSaveMessage(null);
    try {
      const snapshot = { name, document: docRef.current };
      const result = await saveDesignAction(design.id, snapshot);
      if (result.status === "ok") {
        setSaved({ name: snapshot.name, document: JSON.stringify(snapshot.document) });
        setUpdatedAt(result.result.updatedAt);
        setNameError(null);
        setProblems({});
        setSaveMessage({ ok: true, text: "Saved. New credentials and previews use this version." });
      } else if (result.status === "error") {
        const documentErrors: Record<string, string> = {};
        for (const [path, message] of Object.entries(result.fieldErrors)) {
          if (path.startsWith("document.")) documentErrors[path.slice("document.".length)] = message;
        }
        setProblems(documentErrors);
        setNameError(result.fieldErrors.name ?? null);
        setSaveMessage({ ok: false, text: result.message });
      }
    } catch {
      setSaveMessage({ ok: false, text: "Saving failed: the server could not be reached." });
    } finally {
      setSaving(false);
    }
  }, [design.id, name]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  // ---- Keyboard: nudge, delete, undo/redo, duplicate, save ----------------------------------
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const typing = e.target instanceof HTMLElement && e.target.closest("input, textarea, select, [contenteditable]");
      const mod = e.metaKey || e.ctrlKey;
      if (mod && e.key.toLowerCase() === "s") {
        e.preventDefault();
        if (!saving) void save();
        return;
      }
      if (typing) return;
      if (mod && e.key.toLowerCase() === "z") {
        e.preventDefault();
        if (e.shiftKey) redo();
        else undo();
        return;
      }
      if (mod && e.key.toLowerCase() === "y") {
        e.preventDefault();
        redo();
        return;
      }
      if (selected === null) return;
      const el = docRef.current.elements[selected];
      if (!el) return;
      if (e.key === "Delete" || e.key === "Backspace") {
        e.preventDefault();
        removeElement(selected);
      } else if (mod && e.key.toLowerCase() === "d") {
        e.preventDefault();
        addElement(duplicateElement(el, canvas));
      } else if (e.key === "Escape") {
        setSelected(null);
      } else if (e.key.startsWith("Arrow")) {
        e.preventDefault();
        const step = e.shiftKey ? 10 : 1;
        const dx = e.key === "ArrowLeft" ? -step : e.key === "ArrowRight" ? step : 0;
        const dy = e.key === "ArrowUp" ? -step : e.key === "ArrowDown" ? step : 0;
        setElement(selected, moveElement(el, dx, dy, canvas), `nudge-${selected}`);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const changeCanvas = (next: DesignDocument["canvas"]) => {
    const to = canvasOf({ canvas: next });
    change({ ...doc, canvas: next, elements: scaleToCanvas(doc.elements, canvas, to) });
  };

  const invalid = useMemo(() => {
    const set = new Set<number>();
    for (const path of Object.keys(problems)) {
      const m = /^elements\[(\d+)\]/.exec(path);
      if (m) set.add(Number(m[1]));
    }
    return set;
  }, [problems]);
  const customAttributes = useMemo(() => customAttributesOf(doc), [doc]);
  const selectedElement = selected !== null ? doc.elements[selected] : undefined;
  const add = (type: ElementType) => addElement(newElement(type, canvas));

  return (
    <div className={styles.editor}>
      <header className={styles.toolbar}>
        <Link href="/dashboard/designs">← Designs</Link>
        <div className={styles.nameField}>
          <label htmlFor="design-name">Design name</label>
          <input id="design-name" value={name} aria-invalid={nameError ? true : undefined} onChange={(e) => setName(e.target.value)} />
          {nameError && <span className={styles.fieldError}>{nameError}</span>}
        </div>
        <div className={styles.nameField}>
          <label htmlFor="sample-name">Preview with recipient name</label>
          <input id="sample-name" placeholder="Alex Morgan" value={sampleName} onChange={(e) => setSampleName(e.target.value)} />
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
      <p className={styles.status} role="status">
        {saveMessage && !saveMessage.ok ? (
          <span className={styles.badText}>{saveMessage.text}</span>
        ) : dirty ? (
          "Unsaved changes."
        ) : saveMessage ? (
          <span className={styles.okText}>{saveMessage.text}</span>
        ) : (
          // A fixed format: the server renders this too, and its locale and time zone are not the browser's.
          `Last saved ${updatedAt.slice(0, 16).replace("T", " ")} UTC.`
        )}
      </p>

      <div className={styles.columns}>
        <aside className={styles.left}>
          <section>
            <h3>Add</h3>
            <div className={styles.addGrid}>
              <button type="button" onClick={() => add("text")}>Text</button>
              <button type="button" onClick={() => add("rect")}>Shape</button>
              <button type="button" onClick={() => add("line")}>Line</button>
              <button type="button" onClick={() => add("border")}>Border</button>
              <button type="button" onClick={() => add("qr")}>QR code</button>
            </div>
          </section>
          <section>
            <h3>Layers</h3>
            {doc.elements.length === 0 && <p className={styles.hint}>Nothing yet: add an element above.</p>}
            <ol className={styles.layers} aria-label="Layers, top last">
              {doc.elements.map((el, i) => (
                <li key={i}>
                  <button type="button" aria-pressed={i === selected} className={invalid.has(i) ? styles.layerInvalid : undefined} onClick={() => setSelected(i)}>
                    {elementLabel(el)}
                  </button>
                </li>
              ))}
            </ol>
          </section>
          <ImageLibrary
            designId={design.id}
            assets={assets}
            onAssets={setAssets}
            onPlace={(asset) => addElement(newElement("image", canvas, { asset: asset.name, width: asset.width, height: asset.height }))}
          />
        </aside>

        <div className={styles.center}>
          <Stage
            canvas={canvas}
            elements={doc.elements}
            selected={selected}
            previewSrc={preview.src}
            previewAlt={`${name} with sample values`}
            rendering={rendering}
            invalid={invalid}
            onSelect={setSelected}
            onGestureStart={() => remember()}
            onElementChange={(i, el) => setDoc((d) => ({ ...d, elements: d.elements.map((e, j) => (j === i ? el : e)) }))}
          />
          <p className={styles.hint}>
            {canvas.width} × {canvas.height} pt. Drag to move, drag the handles to resize, arrow keys nudge (Shift: 10 pt), Delete removes, Ctrl+D duplicates.
          </p>
          {previewFailure && <p className={styles.badText}>{previewFailure}</p>}
          {Object.keys(problems).length > 0 && (
            <div className={styles.problems} role="alert">
              <strong>The preview shows the last valid version. Fix these to save:</strong>
              <ul>
                {Object.entries(problems).map(([path, message]) => {
                  const m = /^elements\[(\d+)\]/.exec(path);
                  const el = m ? doc.elements[Number(m[1])] : undefined;
                  return (
                    <li key={path}>
                      {el ? (
                        <button type="button" className={styles.linkish} onClick={() => setSelected(Number(m![1]))}>
                          {elementLabel(el)}
                        </button>
                      ) : (
                        <code>{path}</code>
                      )}
                      : {message}
                    </li>
                  );
                })}
              </ul>
            </div>
          )}
          {preview.warnings.length > 0 && Object.keys(problems).length === 0 && (
            <div className={styles.warnings}>
              <strong>With these sample values:</strong>
              <ul>
                {preview.warnings.map((w) => {
                  // The renderer names elements by index ("element 3: ..."); people know them by their layer name.
                  const m = /^element (\d+): (.*)$/.exec(w);
                  const el = m ? doc.elements[Number(m[1])] : undefined;
                  return (
                    <li key={w}>
                      {el ? (
                        <>
                          <button type="button" className={styles.linkish} onClick={() => setSelected(Number(m![1]))}>
                            {elementLabel(el)}
                          </button>
                          : {m![2]}
                        </>
                      ) : (
                        w
                      )}
                    </li>
                  );
                })}
              </ul>
            </div>
          )}
        </div>

        <aside className={styles.right}>
          {selectedElement && selected !== null ? (
            <>
              <div className={styles.elementActions}>
                <button type="button" className={styles.small} onClick={() => setElement(selected, centerElement(selectedElement, "x", canvas))} disabled={selectedElement.type === "border"}>
                  Centre ↔
                </button>
                <button type="button" className={styles.small} onClick={() => setElement(selected, centerElement(selectedElement, "y", canvas))} disabled={selectedElement.type === "border"}>
                  Centre ↕
                </button>
                <button type="button" className={styles.small} onClick={() => moveLayer(selected, 1)} disabled={selected === doc.elements.length - 1}>
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
            <CanvasInspector doc={doc} type={design.type} errors={problems} assets={assets} onCanvasChange={changeCanvas} onChange={change} />
          )}
        </aside>
      </div>
    </div>
  );
}

function ImageLibrary({ designId, assets, onAssets, onPlace }: { designId: string; assets: EditorAsset[]; onAssets: (a: EditorAsset[]) => void; onPlace: (asset: EditorAsset) => void }) {
  const { state, onSubmit, pending, fieldErrors } = useFormAction(uploadDesignImageAction, { resetOnSuccess: true });
  const [removeError, setRemoveError] = useState<string | null>(null);
  const handled = useRef<typeof state | null>(null);
  useEffect(() => {
    if (state.status === "ok" && handled.current !== state) {
      handled.current = state;
      onAssets(state.result.assets);
      const added = state.result.assets.find((a) => a.name === state.result.name);
      if (added) onPlace(added);
    }
  }, [state, onAssets, onPlace]);
  return (
    <section>
      <h3>Images</h3>
      <ul className={styles.assets}>
        {assets.map((a) => (
          <li key={a.name}>
            <span>
              <strong>{a.name}</strong>
              <br />
              <span className={styles.hint}>
                {a.width} × {a.height} px
              </span>
            </span>
            <span className={styles.assetButtons}>
              <button type="button" className={styles.small} onClick={() => onPlace(a)} aria-label={`Place ${a.name}`}>
                Place
              </button>
              <button
                type="button"
                className={styles.small}
                aria-label={`Remove ${a.name}`}
                onClick={async () => {
                  const result = await removeDesignImageAction(designId, a.name);
                  if (result.status === "ok") {
                    setRemoveError(null);
                    onAssets(result.result.assets);
                  } else if (result.status === "error") {
                    setRemoveError(Object.values(result.fieldErrors)[0] ?? result.message);
                  }
                }}
              >
                ✕
              </button>
            </span>
          </li>
        ))}
      </ul>
      {removeError && <p className={styles.fieldError}>Cannot remove: {removeError}</p>}
      <form onSubmit={onSubmit} className={styles.upload}>
        <input type="hidden" name="designId" value={designId} />
        <label htmlFor="design-image">Upload an image (PNG or JPEG, up to 768 KB)</label>
        <input id="design-image" name="image" type="file" accept="image/png,image/jpeg" aria-invalid={fieldErrors.image ? true : undefined} />
        {fieldErrors.image && <span className={styles.fieldError}>{fieldErrors.image}</span>}
        {state.status === "error" && !fieldErrors.image && <span className={styles.fieldError}>{state.message}</span>}
        <button type="submit" className={styles.small} disabled={pending}>
          {pending ? "Uploading…" : "Upload"}
        </button>
      </form>
    </section>
  );
}
