// The credential edit form as a `PATCH /v1/credentials/{id}` body. Only the fields the person changed
// are sent: an untouched expiry date stays derived from the template (sending it would pin it), and
// an untouched field is not written back over a newer change made elsewhere meanwhile. The body is
// then parsed with the API's own schema and applied by the API's own service: no rule lives here,
// only the spelling of the form's fields (an emptied date or attribute means null, as in the API).
import type { ErrorDetail } from "@/lib/core/errors";

/** Each field is sent twice: as typed, and as shown when the form opened (`was:<name>`, hidden). */
export const WAS = "was:";
/** Custom attribute fields are named `attr:custom.<tag>`. */
export const ATTRIBUTE = "attr:";
export const NEW_ATTRIBUTE_TAG = "newAttributeTag";
export const NEW_ATTRIBUTE_VALUE = "newAttributeValue";

type Read = (name: string) => string | null;

export type EditRequest = {
  /** The changed fields as the API's request body; empty when nothing changed. */
  body: Record<string, unknown>;
  /** Mistakes in the form's own fields (a new attribute's value without its name). */
  problems: ErrorDetail[];
};

// Multipart form encoding turns every line break into CRLF; the stored text keeps what was typed.
const lines = (value: string) => value.replace(/\r\n?/g, "\n");

/** The form's fields (FormData's `get`, or any reader of strings) as the PATCH body. */
export function editRequest(read: Read, names: Iterable<string>): EditRequest {
  const value = (name: string) => lines(read(name) ?? "");
  const changed = (name: string) => read(name) !== null && value(name) !== value(`${WAS}${name}`);
  const body: Record<string, unknown> = {};
  const problems: ErrorDetail[] = [];

  // PATCH changes the credential's recipient, named by its id; a credential without one has no such field.
  const recipientId = read("recipientId");
  const nameChanged = read("recipientName") !== null && value("recipientName").trim() !== value(`${WAS}recipientName`).trim();
  if (recipientId !== null && (nameChanged || changed("recipientEmail"))) {
    body.recipient = {
      id: recipientId,
      name: value("recipientName"),
      ...(changed("recipientEmail") ? { email: value("recipientEmail").trim() } : {}),
    };
  }
  if (changed("issueDate")) body.issueDate = value("issueDate").trim();
  // An emptied expiry date is null: the template's expiry setting applies again.
  if (changed("expiryDate")) body.expiryDate = value("expiryDate").trim() === "" ? null : value("expiryDate").trim();

  const attributes: Record<string, string | null> = {};
  for (const name of names) {
    if (!name.startsWith(ATTRIBUTE) || !changed(name)) continue;
    attributes[name.slice(ATTRIBUTE.length)] = value(name) === "" ? null : value(name);
  }
  const tag = value(NEW_ATTRIBUTE_TAG).trim();
  const newValue = value(NEW_ATTRIBUTE_VALUE);
  if (tag !== "") attributes[newAttributeKey(tag)] = newValue === "" ? null : newValue;
  else if (newValue !== "") problems.push({ path: NEW_ATTRIBUTE_TAG, message: "name the new attribute" });
  if (Object.keys(attributes).length > 0) body.customAttributes = attributes;

  return { body, problems };
}

/** The form asks for the tag only; the API's key is `custom.<tag>` (a typed `custom.` is not doubled). */
export function newAttributeKey(tag: string): string {
  const trimmed = tag.trim();
  return trimmed.startsWith("custom.") ? trimmed : `custom.${trimmed}`;
}
