// What /profiles/<handle> shows for an unknown handle and for a profile that is not public: the same
// page, so nobody learns which handles exist.
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { profileLocale } from "./locale";
import styles from "./profile.module.css";

export default async function ProfileNotFound() {
  const t = await getTranslations({ locale: await profileLocale(), namespace: "walletProfile" });
  const home = await getTranslations({ locale: await profileLocale(), namespace: "notFound" });
  return (
    <main className={styles.notFound}>
      <h1>{t("notFoundTitle")}</h1>
      <p>{t("notFoundBody")}</p>
      <p>
        <Link href="/">{home("home")}</Link>
      </p>
    </main>
  );
}
