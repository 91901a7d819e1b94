// A public profile (and its not-found page) starts with the language switch, like the other pages that
// speak their reader's language.
import { LanguageBar } from "@/app/language-bar";
import { profileLanguage } from "./locale";

export default async function PublicProfileLayout({ children }: { children: React.ReactNode }) {
  return (
    <>
      <LanguageBar language={await profileLanguage()} />
      {children}
    </>
  );
}
