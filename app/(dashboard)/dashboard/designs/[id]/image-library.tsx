"use client";
// The design's images in the editor: upload (saved at once, so it can be placed and previewed before
// the layout is saved), place on the canvas, remove when nothing in the draft shows it.
import { useEffect, useRef, useState } from "react";
import { removeDesignImageAction, uploadDesignImageAction, type EditorAsset, type ImageChange } from "../actions";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import styles from "./editor.module.css";

export function ImageLibrary({
  designId,
  assets,
  usedBy,
  onImagesChanged,
  onPlace,
  onCanvas,
}: {
  designId: string;
  assets: EditorAsset[];
  /** What in the current draft shows the image, if anything. */
  usedBy: (asset: string) => string | null;
  onImagesChanged: (change: ImageChange) => void;
  /** Puts the image on the canvas, or selects it where it already is (one image per action, never a copy on top). */
  onPlace: (asset: EditorAsset) => void;
  /** Whether an image element of the draft shows the image. */
  onCanvas: (asset: string) => boolean;
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
      <h2>Images</h2>
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
              {onCanvas(a.name) ? (
                <button type="button" className={styles.small} onClick={() => onPlace(a)} aria-label={`Select ${a.name} on the canvas`}>
                  Select
                </button>
              ) : (
                <button type="button" className={styles.small} onClick={() => onPlace(a)} aria-label={`Place ${a.name}`}>
                  Place
                </button>
              )}
              <button
                type="button"
                className={styles.small}
                aria-label={`Remove ${a.name}`}
                onClick={() =>
                  void (async () => {
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
                  })()
                }
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
        <label htmlFor="design-image">Upload an image (PNG or JPEG, up to 768 KB); it is placed on the canvas</label>
        <input
          id="design-image"
          name="image"
          type="file"
          accept="image/png,image/jpeg"
          aria-invalid={fieldErrors.image ? true : undefined}
        />
        {fieldErrors.image && <span className={styles.fieldError}>{fieldErrors.image}</span>}
        {state.status === "error" && !fieldErrors.image && <span className={styles.fieldError}>{state.message}</span>}
        <button type="submit" className={styles.small} disabled={pending}>
          {pending ? "Uploading…" : "Upload"}
        </button>
      </form>
    </section>
  );
}
