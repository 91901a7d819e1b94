// The starter designs a new organization gets, whichever way it is made (sign-up, OAuth sign-in,
// `npm run cli -- org create`), so that it can go from nothing to a sent certificate without drawing.
import { DesignDocument } from "../render/document";
import { SEED_DESIGNS } from "./seed-documents";
import { createDesign } from "./service";

export async function addStarterDesigns(organization: { id: string; name: string }): Promise<void> {
  for (const seed of SEED_DESIGNS) {
    await createDesign(organization, { name: seed.name, type: seed.type, document: DesignDocument.parse(seed.document) });
  }
}
