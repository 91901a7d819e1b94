"use client";
// The design editor: a layer list and the images on the left, the canvas in the middle, the
// selected element's properties on the right. Every change is previewed by the server's renderer
// (debounced) and checked by the same rules as the API; Save writes a new revision.
import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { DesignDocument, DesignElement } from "@/lib/render/document";
import { previewDraftAction, removeDesignImageAction, saveDesignAction, uploadDesignImageAction, type EditorAsset, type ImageChange } from "../actions";
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
const BUSY_RETRY_MS = 700;
/** The schema's limit on elements per design. */
const MAX_ELEMENTS = 200;

type StoredDraft = { base: string; name: string; document: DesignDocument; keptAt: string };

function readStoredDraft(key: string): StoredDraft | null {
  try {
    const raw = localStorage.getItem(key);
    const draft = raw ? (JSON.parse(raw) as Partial<StoredDraft>) : null;
    return draft && typeof draft.base === "string" && typeof draft.name === "string" && draft.document && Array.isArray(draft.document.elements) ? (draft as StoredDraft) : null;
  } catch {
    return null;
  }
}
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
    if (doc.elements.length >= MAX_ELEMENTS) return;
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
  // Bumped to ask again for the same draft (after the server said "busy").
  const [retry, setRetry] = useState(0);
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
          if (Object.keys(result.fieldErrors).length) {
            setProblems(result.fieldErrors);
            setPreviewFailure(null);
          } else if (result.message.startsWith("Too many previews")) {
            // Other editors of the organization are rendering: this draft's turn comes shortly.
            setTimeout(() => setRetry((n) => n + 1), BUSY_RETRY_MS);
          } else {
            setPreviewFailure(result.message);
          }
        }
      } catch {
        if (seq === requestSeq.current) setPreviewFailure("The preview could not be reached; check your connection.");
      } finally {
        if (seq === requestSeq.current) setRendering(false);
      }
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [doc, sampleName, design.id, retry]);

  // ---- Saving ------------------------------------------------------------------------------
  const [saving, setSaving] = useState(false);
  const [saveMessage, setSaveMessage] = useState<{ ok: boolean; text: string; conflict?: boolean } | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  // The version these edits are based on: a save is refused when someone saved after it.
  const [base, setBase] = useState(design.updatedAt);
  const dirty = saved.name !== name || saved.document !== JSON.stringify(doc);
  const save = useCallback(
    async (overwrite = false) => {
      setSaving(true);
      setSaveMessage(null);
      try {
        const snapshot = { name, document: docRef.current };
        const result = await saveDesignAction(design.id, { ...snapshot, baseUpdatedAt: base, overwrite });
        if (result.status === "ok") {
          setSaved({ name: snapshot.name, document: JSON.stringify(snapshot.document) });
          setUpdatedAt(result.result.updatedAt);
          setBase(result.result.updatedAt);
          setNameError(null);
          // Problems reported meanwhile for newer edits still stand.
          if (docRef.current === snapshot.document) setProblems({});
          setSaveMessage({ ok: true, text: "Saved. New credentials and previews use this version." });
        } else if (result.status === "error") {
          const documentErrors: Record<string, string> = {};
          for (const [path, message] of Object.entries(result.fieldErrors)) {
            if (path.startsWith("document.")) documentErrors[path.slice("document.".length)] = message;
          }
          if (Object.keys(documentErrors).length) setProblems(documentErrors);
          setNameError(result.fieldErrors.name ?? null);
          setSaveMessage({ ok: false, text: result.message, conflict: "conflict" in result && result.conflict === true });
        }
      } catch {
        setSaveMessage({ ok: false, text: "Saving failed: the server could not be reached. Your changes are kept in this browser." });
      } finally {
        setSaving(false);
      }
    },
    [design.id, name, base],
  );

  // Unsaved work survives a closed tab, an expired session or a crash: it is kept in this browser
  // until saved, and offered back when the editor opens again.
  const draftKey = `design-draft:${design.id}`;
  const [storedDraft, setStoredDraft] = useState<StoredDraft | null>(null);
  useEffect(() => {
    const found = readStoredDraft(draftKey);
    if (found && (found.name !== design.name || JSON.stringify(found.document) !== JSON.stringify(design.document))) setStoredDraft(found);
    // Only on opening: later changes are this editor's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (storedDraft) return; // not over a draft that is still being offered back
    try {
      if (dirty) localStorage.setItem(draftKey, JSON.stringify({ base, name, document: doc, keptAt: new Date().toISOString() } satisfies StoredDraft));
      else localStorage.removeItem(draftKey);
    } catch {
      /* storage full or disabled: the beforeunload warning still protects the work */
    }
  }, [doc, name, dirty, base, draftKey, storedDraft]);
  const restoreDraft = () => {
    if (!storedDraft) return;
    remember();
    setDoc(storedDraft.document);
    setName(storedDraft.name);
    setBase(storedDraft.base);
    setStoredDraft(null);
  };

  // Leaving with unsaved changes asks first: closing the tab (beforeunload) and the dashboard's own links.
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

  // ---- Keyboard: nudge, delete, undo/redo, duplicate, save ----------------------------------
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Keys belong to the field when one takes text (or arrows, like a select); checkboxes and
      // colour pickers do not, so Delete and Ctrl+Z still act on the design after using them.
      const typing = e.target instanceof HTMLElement && e.target.closest("textarea, select, [contenteditable], input:not([type=checkbox]):not([type=radio]):not([type=color]):not([type=file])");
      const mod = e.metaKey || e.ctrlKey;
      if (mod && e.key.toLowerCase() === "s") {
        e.preventDefault();
        if (!saving && dirty) void save();
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
  const full = doc.elements.length >= MAX_ELEMENTS;
  const add = (type: ElementType) => addElement(newElement(type, canvas));
  const listedProblems = Object.entries(problems).filter(([path]) => path !== "recipientName");

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
          <input id="sample-name" placeholder="Alex Morgan" value={sampleName} aria-invalid={problems.recipientName ? true : undefined} onChange={(e) => setSampleName(e.target.value)} />
          {problems.recipientName && <span className={styles.fieldError}>{problems.recipientName}</span>}
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
      {storedDraft && (
        <div className={styles.draftBanner} role="region" aria-label="Unsaved changes from before">
          <span>
            Unsaved changes to this design from {storedDraft.keptAt.slice(0, 16).replace("T", " ")} UTC were kept in this browser.
          </span>
          <button type="button" className={styles.small} onClick={restoreDraft}>
            Restore them
          </button>
          <button
            type="button"
            className={styles.small}
            onClick={() => {
              setStoredDraft(null);
              try {
                localStorage.removeItem(draftKey);
              } catch {
                /* nothing kept */
              }
            }}
          >
            Discard
          </button>
        </div>
      )}
      <p className={styles.status} role="status">
        {saveMessage && !saveMessage.ok ? (
          <span className={styles.badText}>
            {saveMessage.text}
            {saveMessage.conflict && (
              <>
                {" "}
                <button type="button" className={styles.linkish} onClick={() => void save(true)}>
                  Save mine over it
                </button>{" "}
                or{" "}
                <button type="button" className={styles.linkish} onClick={() => window.location.reload()}>
                  open the newer version
                </button>{" "}
                (yours stays kept in this browser).
              </>
            )}
          </span>
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
              {(
                [
                  ["text", "Text"],
                  ["rect", "Shape"],
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
            usedBy={(asset) => {
              if (doc.background.image?.asset === asset) return "the background";
              const i = doc.elements.findIndex((el) => el.type === "image" && el.asset === asset);
              return i >= 0 ? elementLabel(doc.elements[i]!) : null;
            }}
            assets={assets}
            onImagesChanged={(change) => {
              setAssets(change.assets);
              setUpdatedAt(change.updatedAt);
              // Our own image change moved the design on; someone else's save in between did not.
              setBase((b) => (b === change.previousUpdatedAt ? change.updatedAt : b));
            }}
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
          {listedProblems.length > 0 && (
            <div className={styles.problems} role="alert">
              <strong>The preview shows the last valid version. Fix these to save:</strong>
              <ul>
                {listedProblems.map(([path, message]) => {
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
          {preview.warnings.length > 0 && listedProblems.length === 0 && (
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

function ImageLibrary({
  designId,
  assets,
  usedBy,
  onImagesChanged,
  onPlace,
}: {
  designId: string;
  assets: EditorAsset[];
  /** What in the current draft shows the image, if anything. */
  usedBy: (asset: string) => string | null;
  onImagesChanged: (change: ImageChange) => void;
  onPlace: (asset: EditorAsset) => void;
}) {
  const { state, onSubmit, pending, fieldErrors } = useFormAction(uploadDesignImageAction, { resetOnSuccess: true });
  const [removeError, setRemoveError] = useState<string | null>(null);
  const handled = useRef<typeof state | null>(null);
  useEffect(() => {
    if (state.status === "ok" && handled.current !== state) {
      handled.current = state;
      onImagesChanged(state.result);
      const added = state.result.assets.find((a) => a.name === state.result.name);
      if (added) onPlace(added);
    }
  }, [state, onImagesChanged, onPlace]);
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
                  const user = usedBy(a.name);
                  if (user) {
                    setRemoveError(`"${a.name}" is used by ${user}: take it out of the layout first`);
                    return;
                  }
                  const result = await removeDesignImageAction(designId, a.name);
                  if (result.status === "ok") {
                    setRemoveError(null);
                    onImagesChanged(result.result);
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
