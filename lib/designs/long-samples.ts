// Long, realistic sample values for the design editor's preview. A design is checked with the
// longest values its credentials are likely to carry, so a text box that is too small shows up while
// designing rather than on a recipient's certificate. Every name is a plausible full name as people
// write it on a form (given names, family names, particles, double-barrelled surnames), in the
// scripts the renderer draws.

/**
 * Long recipient names, the one the preview's picture shows first. The others are laid out too (no
 * picture) to find texts that overflow with them: scripts differ in width, so the longest in
 * characters is not always the widest.
 */
export const LONG_RECIPIENT_NAMES = [
  "Maria Guadalupe Fernández de la Torre Villanueva",
  "João Pedro de Albuquerque Cavalcanti Figueiredo",
  "Anna-Katharina von Hohenberg-Wittelsbach",
  "Tôn Nữ Thị Ngọc Phương Thảo Nguyễn",
  "Александра Константиновна Рождественская",
  "Αικατερίνη Παπαδοπούλου-Χατζηγεωργίου",
  "عبد الرحمن بن محمد بن عبد العزيز الشمراني",
  "वेंकटरमण सुब्रह्मण्यम श्रीनिवासन",
  "சுப்பிரமணியன் வெங்கடராமன் கிருஷ்ணமூர்த்தி",
  "ศรีสุดา จันทร์เพ็ญศิริวัฒนา",
  "勅使河原 佐和子",
] as const;

/** The scripts the long names are written in (a test keeps this list and the names in step). */
export const LONG_SAMPLE_SCRIPTS = ["Latin", "Cyrillic", "Greek", "Arabic", "Devanagari", "Tamil", "Thai", "Han"] as const;

/** The credential name shown when no template using the design says a longer one. */
export const LONG_GROUP_NAMES = {
  certificate: "Professional Certificate in Advanced Data Analysis and Visualisation",
  badge: "Certified Data Analysis and Visualisation Expert",
} as const;

/** The longest of some names (in characters), or null for none. */
export function longestOf(names: readonly string[]): string | null {
  let longest: string | null = null;
  for (const name of names) if (longest === null || [...name].length > [...longest].length) longest = name;
  return longest;
}
