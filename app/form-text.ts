/**
 * One text field of a submitted form. A missing field and a file are both "" (String() of a File would be
 * "[object File]", which no validation rule expects).
 */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
