"use client";
// The inspector: the selected element's properties, or the canvas's when nothing is selected.
import { useId, useRef, useState } from "react";
import { BUILTIN_ATTRIBUTES, CUSTOM_ATTRIBUTE_KEY, placeholdersIn, type DesignDocument, type DesignElement } from "@/lib/render/document";
import type { EditorAsset } from "../actions";
import { CheckField, ColorField, NumberField, SelectField } from "./fields";
import { FontPicker } from "./font-picker";
import { ELEMENT_NAMES } from "./geometry";
import styles from "./editor.module.css";

export const ATTRIBUTE_LABELS: Record<(typeof BUILTIN_ATTRIBUTES)[number], string> = {
  "recipient.name": "Recipient name",
  "group.name": "Template (course) name",
  "organization.name": "Organization name",
  "credential.issueDate": "Issue date",
  "credential.expiryDate": "Expiry date",
  "credential.id": "Credential id",
  "credential.publicId": "Public id",
  "credential.url": "Wallet link",
};

type Errors = Readonly<Record<string, string>>;

type ElementProps<T extends DesignElement["type"]> = {
  element: Extract<DesignElement, { type: T }>;
  path: string;
  errors: Errors;
  onChange: (element: DesignElement, coalesce?: string) => void;
};

function BoxFields({ element, path, errors, onChange }: ElementProps<"text" | "image" | "rect">) {
  const set = (key: "x" | "y" | "width" | "height") => (v: number) => onChange({ ...element, [key]: v }, `${path}.${key}`);
  return (
    <div className={styles.pair}>
      <NumberField label="X" value={element.x} onChange={set("x")} error={errors[`${path}.x`]} />
      <NumberField label="Y" value={element.y} onChange={set("y")} error={errors[`${path}.y`]} />
      <NumberField label="Width" value={element.width} onChange={set("width")} error={errors[`${path}.width`]} />
      <NumberField label="Height" value={element.height} onChange={set("height")} error={errors[`${path}.height`]} />
    </div>
  );
}

function TextFields({
  element,
  path,
  errors,
  onChange,
  customAttributes,
}: ElementProps<"text"> & { customAttributes: CustomAttributeChoice[] }) {
  const textId = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  // Where the cursor was when the text box was last used: picking from the list moves focus away.
  const selection = useRef<{ start: number; end: number } | null>(null);
  const rememberSelection = () => {
    if (area.current) selection.current = { start: area.current.selectionStart, end: area.current.selectionEnd };
  };
  const [customTag, setCustomTag] = useState("");
  const [customError, setCustomError] = useState<string | null>(null);
  const font = (changes: Partial<typeof element.font>, key: string) =>
    onChange({ ...element, font: { ...element.font, ...changes } }, `${path}.font.${key}`);
  /** Puts `[name]` where the cursor was (or at the end), and puts the cursor after it. */
  const insert = (name: string) => {
    const placeholder = `[${name}]`;
    const at = Math.min(selection.current?.start ?? element.text.length, element.text.length);
    const end = Math.min(Math.max(selection.current?.end ?? at, at), element.text.length);
    onChange({ ...element, text: element.text.slice(0, at) + placeholder + element.text.slice(end) });
    selection.current = { start: at + placeholder.length, end: at + placeholder.length };
    // Back to the text box after the new text is drawn, unless focus has moved on meanwhile: a person
    // (or a test on a slow machine) already typing into another field keeps it, rather than having
    // the rest of their typing land in the text.
    const pickedFrom = document.activeElement;
    requestAnimationFrame(() => {
      const focusNow = document.activeElement;
      if (focusNow !== pickedFrom && focusNow !== document.body && focusNow !== null) return;
      area.current?.focus();
      area.current?.setSelectionRange(at + placeholder.length, at + placeholder.length);
    });
  };
  return (
    <>
      <div className={styles.field}>
        <label htmlFor={textId}>Text</label>
        <textarea
          id={textId}
          ref={area}
          rows={3}
          value={element.text}
          aria-invalid={errors[`${path}.text`] ? true : undefined}
          onChange={(e) => {
            onChange({ ...element, text: e.target.value }, `${path}.text`);
            rememberSelection();
          }}
          onSelect={rememberSelection}
          onKeyUp={rememberSelection}
          onClick={rememberSelection}
        />
        {errors[`${path}.text`] && <span className={styles.fieldError}>{errors[`${path}.text`]}</span>}
      </div>
      <div className={styles.field}>
        <label htmlFor={`${textId}-attr`}>Insert attribute</label>
        <select
          id={`${textId}-attr`}
          value=""
          onChange={(e) => {
            if (e.target.value) insert(e.target.value);
          }}
        >
          <option value="">Choose an attribute…</option>
          {BUILTIN_ATTRIBUTES.map((name) => (
            <option key={name} value={name}>
              {ATTRIBUTE_LABELS[name]} [{name}]
            </option>
          ))}
          {customAttributes.map((a) => (
            <option key={a.tag} value={a.tag}>
              {a.name} [{a.tag}]
            </option>
          ))}
        </select>
        <span className={styles.hint}>Filled in per credential. A text whose attributes are all empty is left out.</span>
      </div>
      <form
        className={styles.inline}
        onSubmit={(e) => {
          e.preventDefault();
          const tag = customTag.trim();
          if (!tag) return;
          // The placeholder rule itself: a tag that breaks it would print literally on every credential.
          if (!CUSTOM_ATTRIBUTE_KEY.test(`custom.${tag}`)) {
            setCustomError("use 1 to 64 letters, digits, '_' or '-' (no spaces)");
            return;
          }
          insert(`custom.${tag}`);
          setCustomTag("");
          setCustomError(null);
        }}
      >
        <div className={styles.field}>
          <label htmlFor={`${textId}-custom`}>Custom attribute</label>
          <input
            id={`${textId}-custom`}
            placeholder="grade"
            value={customTag}
            aria-invalid={customError ? true : undefined}
            onChange={(e) => setCustomTag(e.target.value)}
          />
          {customError && <span className={styles.fieldError}>{customError}</span>}
        </div>
        <button type="submit" className={styles.small}>
          Insert
        </button>
      </form>
      <BoxFields element={element} path={path} errors={errors} onChange={onChange} />
      <FontPicker value={element.font.family} onChange={(family) => font({ family }, "family")} error={errors[`${path}.font.family`]} />
      <div className={styles.pair}>
        <SelectField
          label="Weight"
          value={String(element.font.weight) as "400" | "700"}
          options={[
            { value: "400", label: "Regular" },
            { value: "700", label: "Bold" },
          ]}
          onChange={(w) => font({ weight: Number(w) as 400 | 700 }, "weight")}
          error={errors[`${path}.font.weight`]}
        />
        <NumberField
          label="Size"
          value={element.font.size}
          onChange={(size) => font({ size }, "size")}
          error={errors[`${path}.font.size`]}
        />
        <ColorField
          label="Colour"
          value={element.font.color}
          onChange={(color) => font({ color }, "color")}
          error={errors[`${path}.font.color`]}
        />
        <NumberField
          label="Letter spacing"
          step={0.5}
          value={element.font.letterSpacing}
          onChange={(letterSpacing) => font({ letterSpacing }, "letterSpacing")}
          error={errors[`${path}.font.letterSpacing`]}
        />
        <NumberField
          label="Line height"
          step={0.1}
          value={element.font.lineHeight}
          onChange={(lineHeight) => font({ lineHeight }, "lineHeight")}
          error={errors[`${path}.font.lineHeight`]}
        />
        <SelectField
          label="Align"
          value={element.align}
          options={["left", "center", "right"] as const}
          onChange={(align) => onChange({ ...element, align })}
        />
        <SelectField
          label="Vertical"
          value={element.verticalAlign}
          options={["top", "middle", "bottom"] as const}
          onChange={(verticalAlign) => onChange({ ...element, verticalAlign })}
        />
      </div>
      <fieldset className={styles.fitting}>
        <legend>Fitting the box</legend>
        <CheckField label="Shrink to fit" checked={element.shrinkToFit} onChange={(shrinkToFit) => onChange({ ...element, shrinkToFit })} />
        <div className={styles.pair}>
          <NumberField
            label="Lines at most"
            value={element.maxLines}
            min={1}
            max={20}
            onChange={(maxLines) => onChange({ ...element, maxLines }, `${path}.maxLines`)}
            error={errors[`${path}.maxLines`]}
          />
          {element.shrinkToFit && (
            <NumberField
              label="Smallest size"
              value={element.minSize}
              min={4}
              max={300}
              onChange={(minSize) => onChange({ ...element, minSize }, `${path}.minSize`)}
              error={errors[`${path}.minSize`]}
              // Not refused (the renderer never grows text), but it makes shrinking do nothing.
              hint={element.minSize >= element.font.size ? "Not below the size: the text will not shrink." : undefined}
            />
          )}
        </div>
        <p className={styles.hint}>
          {element.shrinkToFit
            ? "Long values get smaller, down to the smallest size, until they fit the lines allowed; past that they are cut short."
            : "The text keeps its size; what does not fit the lines allowed is cut short with an ellipsis."}
        </p>
      </fieldset>
      <CheckField label="UPPERCASE" checked={element.uppercase} onChange={(uppercase) => onChange({ ...element, uppercase })} />
    </>
  );
}

function ImageFields({ element, path, errors, onChange, assets }: ElementProps<"image"> & { assets: EditorAsset[] }) {
  const names = assets.map((a) => a.name);
  return (
    <>
      <SelectField
        label="Image"
        value={element.asset}
        options={names.includes(element.asset) ? names : [element.asset, ...names]}
        onChange={(asset) => onChange({ ...element, asset })}
        error={errors[`${path}.asset`]}
      />
      <BoxFields element={element} path={path} errors={errors} onChange={onChange} />
      <div className={styles.pair}>
        <SelectField
          label="Fit"
          value={element.fit}
          options={["contain", "cover"] as const}
          onChange={(fit) => onChange({ ...element, fit })}
        />
        <NumberField
          label="Opacity"
          step={0.1}
          min={0}
          max={1}
          value={element.opacity}
          onChange={(opacity) => onChange({ ...element, opacity }, `${path}.opacity`)}
          error={errors[`${path}.opacity`]}
        />
      </div>
    </>
  );
}

function RectFields({ element, path, errors, onChange }: ElementProps<"rect">) {
  return (
    <>
      <BoxFields element={element} path={path} errors={errors} onChange={onChange} />
      <CheckField label="Filled" checked={element.fill !== null} onChange={(on) => onChange({ ...element, fill: on ? "#e5e7eb" : null })} />
      {element.fill !== null && (
        <ColorField
          label="Fill"
          value={element.fill}
          onChange={(fill) => onChange({ ...element, fill }, `${path}.fill`)}
          error={errors[`${path}.fill`]}
        />
      )}
      <CheckField
        label="Outline"
        checked={element.stroke !== null}
        onChange={(on) =>
          onChange({ ...element, stroke: on ? "#111111" : null, strokeWidth: on && element.strokeWidth === 0 ? 2 : element.strokeWidth })
        }
      />
      {element.stroke !== null && (
        <div className={styles.pair}>
          <ColorField
            label="Outline colour"
            value={element.stroke}
            onChange={(stroke) => onChange({ ...element, stroke }, `${path}.stroke`)}
            error={errors[`${path}.stroke`]}
          />
          <NumberField
            label="Outline width"
            value={element.strokeWidth}
            onChange={(strokeWidth) => onChange({ ...element, strokeWidth }, `${path}.strokeWidth`)}
            error={errors[`${path}.strokeWidth`]}
          />
        </div>
      )}
      <NumberField
        label="Corner radius"
        value={element.radius}
        onChange={(radius) => onChange({ ...element, radius }, `${path}.radius`)}
        error={errors[`${path}.radius`]}
        hint="Half the width of a square makes a circle."
      />
    </>
  );
}

function LineFields({ element, path, errors, onChange }: ElementProps<"line">) {
  const set = (key: "x1" | "y1" | "x2" | "y2" | "thickness") => (v: number) => onChange({ ...element, [key]: v }, `${path}.${key}`);
  return (
    <>
      <div className={styles.pair}>
        <NumberField label="Start X" value={element.x1} onChange={set("x1")} error={errors[`${path}.x1`]} />
        <NumberField label="Start Y" value={element.y1} onChange={set("y1")} error={errors[`${path}.y1`]} />
        <NumberField label="End X" value={element.x2} onChange={set("x2")} error={errors[`${path}.x2`]} />
        <NumberField label="End Y" value={element.y2} onChange={set("y2")} error={errors[`${path}.y2`]} />
      </div>
      <div className={styles.pair}>
        <ColorField
          label="Colour"
          value={element.color}
          onChange={(color) => onChange({ ...element, color }, `${path}.color`)}
          error={errors[`${path}.color`]}
        />
        <NumberField label="Thickness" value={element.thickness} onChange={set("thickness")} error={errors[`${path}.thickness`]} />
      </div>
    </>
  );
}

function BorderFields({ element, path, errors, onChange }: ElementProps<"border">) {
  const set = (key: "inset" | "thickness" | "radius") => (v: number) => onChange({ ...element, [key]: v }, `${path}.${key}`);
  return (
    <div className={styles.pair}>
      <NumberField label="Distance from edge" value={element.inset} onChange={set("inset")} error={errors[`${path}.inset`]} />
      <NumberField label="Thickness" value={element.thickness} onChange={set("thickness")} error={errors[`${path}.thickness`]} />
      <ColorField
        label="Colour"
        value={element.color}
        onChange={(color) => onChange({ ...element, color }, `${path}.color`)}
        error={errors[`${path}.color`]}
      />
      <SelectField
        label="Style"
        value={element.style}
        options={["solid", "double"] as const}
        onChange={(style) => onChange({ ...element, style })}
      />
      <NumberField label="Corner radius" value={element.radius} onChange={set("radius")} error={errors[`${path}.radius`]} />
    </div>
  );
}

function QrFields({ element, path, errors, onChange }: ElementProps<"qr">) {
  const set = (key: "x" | "y" | "size") => (v: number) => onChange({ ...element, [key]: v }, `${path}.${key}`);
  return (
    <>
      <p className={styles.hint}>Encodes the credential&apos;s wallet link, so a printed certificate can be verified.</p>
      <div className={styles.pair}>
        <NumberField label="X" value={element.x} onChange={set("x")} error={errors[`${path}.x`]} />
        <NumberField label="Y" value={element.y} onChange={set("y")} error={errors[`${path}.y`]} />
        <NumberField label="Size" value={element.size} onChange={set("size")} error={errors[`${path}.size`]} />
        <ColorField
          label="Colour"
          value={element.color}
          onChange={(color) => onChange({ ...element, color }, `${path}.color`)}
          error={errors[`${path}.color`]}
        />
        <ColorField
          label="Background"
          value={element.background}
          onChange={(background) => onChange({ ...element, background }, `${path}.background`)}
          error={errors[`${path}.background`]}
        />
      </div>
    </>
  );
}

export function ElementInspector(props: {
  element: DesignElement;
  index: number;
  errors: Errors;
  assets: EditorAsset[];
  customAttributes: CustomAttributeChoice[];
  onChange: (element: DesignElement, coalesce?: string) => void;
}) {
  const { element, index, errors, onChange } = props;
  const path = `elements[${index}]`;
  const common = { path, errors, onChange };
  return (
    <div className={styles.panel} aria-label={`${ELEMENT_NAMES[element.type]} properties`} role="group">
      <h2>{ELEMENT_NAMES[element.type]}</h2>
      {errors[path] && <p className={styles.fieldError}>{errors[path]}</p>}
      {element.type === "text" && <TextFields element={element} {...common} customAttributes={props.customAttributes} />}
      {element.type === "image" && <ImageFields element={element} {...common} assets={props.assets} />}
      {element.type === "rect" && <RectFields element={element} {...common} />}
      {element.type === "line" && <LineFields element={element} {...common} />}
      {element.type === "border" && <BorderFields element={element} {...common} />}
      {element.type === "qr" && <QrFields element={element} {...common} />}
    </div>
  );
}

const DATE_STYLES = [
  { value: "long", label: "Long (January 15, 2026)" },
  { value: "medium", label: "Medium (Jan 15, 2026)" },
  { value: "short", label: "Short (1/15/26)" },
  { value: "iso", label: "ISO (2026-01-15)" },
] as const;

export function CanvasInspector({
  doc,
  type,
  errors,
  assets,
  onCanvasChange,
  onChange,
}: {
  doc: DesignDocument;
  type: "certificate" | "badge";
  errors: Errors;
  assets: EditorAsset[];
  onCanvasChange: (canvas: DesignDocument["canvas"]) => void;
  onChange: (doc: DesignDocument, coalesce?: string) => void;
}) {
  const image = doc.background.image;
  const setBackground = (background: Partial<DesignDocument["background"]>, coalesce?: string) =>
    onChange({ ...doc, background: { ...doc.background, ...background } }, coalesce);
  return (
    <div className={styles.panel} role="group" aria-label="Canvas properties">
      <h2>Canvas</h2>
      {type === "badge" ? (
        <p className={styles.hint}>A badge is square: 600 × 600 points.</p>
      ) : (
        <div className={styles.pair}>
          <SelectField
            label="Paper"
            value={doc.canvas.size as "A4" | "Letter"}
            options={["A4", "Letter"] as const}
            onChange={(size) => onCanvasChange({ ...doc.canvas, size })}
            error={errors["canvas.size"]}
          />
          <SelectField
            label="Orientation"
            value={doc.canvas.orientation}
            options={["landscape", "portrait"] as const}
            onChange={(orientation) => onCanvasChange({ ...doc.canvas, orientation })}
          />
        </div>
      )}
      <ColorField
        label="Background colour"
        value={doc.background.color}
        onChange={(color) => setBackground({ color }, "background.color")}
        error={errors["background.color"]}
      />
      <SelectField
        label="Background image"
        value={image?.asset ?? ""}
        options={[
          { value: "", label: "None" },
          ...assets.map((a) => ({ value: a.name, label: a.name })),
          ...(image && !assets.some((a) => a.name === image.asset) ? [{ value: image.asset, label: image.asset }] : []),
        ]}
        onChange={(asset) => setBackground({ image: asset ? { asset, fit: image?.fit ?? "cover", opacity: image?.opacity ?? 1 } : null })}
        error={errors["background.image.asset"]}
        hint={assets.length === 0 ? "Upload an image first (Images, on the left)." : undefined}
      />
      {image && (
        <div className={styles.pair}>
          <SelectField
            label="Image fit"
            value={image.fit}
            options={["cover", "contain"] as const}
            onChange={(fit) => setBackground({ image: { ...image, fit } })}
          />
          <NumberField
            label="Image opacity"
            step={0.1}
            min={0}
            max={1}
            value={image.opacity}
            onChange={(opacity) => setBackground({ image: { ...image, opacity } }, "background.image.opacity")}
            error={errors["background.image.opacity"]}
          />
        </div>
      )}
      <div className={styles.pair}>
        <TextInput
          label="Date locale"
          value={doc.locale}
          onChange={(locale) => onChange({ ...doc, locale }, "locale")}
          error={errors.locale}
          hint="e.g. en-US, de-DE, ja-JP"
        />
        <SelectField
          label="Date style"
          value={doc.dateStyle}
          options={DATE_STYLES}
          onChange={(dateStyle) => onChange({ ...doc, dateStyle })}
        />
      </div>
    </div>
  );
}

function TextInput({
  label,
  value,
  onChange,
  error,
  hint,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} aria-invalid={error ? true : undefined} onChange={(e) => onChange(e.target.value)} />
      {error ? <span className={styles.fieldError}>{error}</span> : hint ? <span className={styles.hint}>{hint}</span> : null}
    </div>
  );
}

export type CustomAttributeChoice = { tag: string; name: string };

/**
 * The `custom.<tag>` attributes offered in every text's attribute list: the organization's (defined or
 * used anywhere, GET /v1/attributes), and those this unsaved document has just started using (named
 * by their tag, as the organization's list would name them once saved).
 */
export function customAttributesOf(doc: DesignDocument, organization: CustomAttributeChoice[] = []): CustomAttributeChoice[] {
  const byTag = new Map(organization.map((a) => [a.tag, a]));
  for (const el of doc.elements) {
    if (el.type !== "text") continue;
    for (const n of placeholdersIn(el.text))
      if (n.startsWith("custom.") && !byTag.has(n)) byTag.set(n, { tag: n, name: n.slice("custom.".length) });
  }
  return [...byTag.values()].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
}
