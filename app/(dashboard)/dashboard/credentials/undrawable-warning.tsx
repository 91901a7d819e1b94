// The warning the single credential form shows when a design of the template cannot draw the
// credential's text: what the create action answers, and how the form lists it. Shared by the server
// action and the client form, so only types come from the server side.
import type { UndrawableDesign } from "@/lib/credentials/undrawable-text";

/** One design that cannot draw the text, as the form shows it. */
export type UndrawableDesignView = { designId: string; designName: string; characters: string[]; fields: string[] };

export type CreateCredentialOutcome =
  | { kind: "created"; id: string; status: string; undrawable: UndrawableDesignView[] }
  /** Nothing was written: issuing waits for the person to acknowledge these designs and characters. */
  | { kind: "confirm"; undrawable: UndrawableDesignView[]; acknowledgement: string };

// The names the form's fields and the template give the attributes a design draws.
const FIELD_LABELS: Record<string, string> = {
  "recipient.name": "Recipient name",
  "credential.issueDate": "Issue date",
  "credential.expiryDate": "Expiry date",
  "group.name": "the template's name",
  "organization.name": "your organization's name",
};

export function undrawableView(designs: UndrawableDesign[]): UndrawableDesignView[] {
  return designs.map((d) => ({
    designId: d.designId,
    designName: d.designName,
    characters: d.describedCharacters,
    fields: d.attributes.map((a) => FIELD_LABELS[a] ?? a),
  }));
}

/** What a confirmation acknowledges: these designs with these characters (another name with other characters asks again). */
export function acknowledgementOf(designs: UndrawableDesignView[]): string {
  return designs.map((d) => `${d.designId}:${d.characters.join(",")}`).join("|");
}

export function UndrawableList({ designs }: { designs: UndrawableDesignView[] }) {
  return (
    <ul data-testid="undrawable-designs">
      {designs.map((d) => (
        <li key={d.designId}>
          <strong>{d.designName}</strong> cannot draw {d.characters.join(", ")}
          {d.fields.length > 0 && <> (in {d.fields.join(", ")})</>}
        </li>
      ))}
    </ul>
  );
}
