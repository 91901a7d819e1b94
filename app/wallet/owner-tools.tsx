// The signed-in recipient's own tools on /wallet, beside the list of their credentials: the public
// profile settings and "Download all". One component, so the page names it once.
import { config } from "@/lib/config";
import type { Locale } from "@/lib/i18n/locales";
import { walletProfile } from "@/lib/wallet-profiles/service";
import { DownloadAll } from "./download-all";
import { ProfileSettings } from "./profile-settings";
import styles from "./profile-settings.module.css";

/** What the address field shows before the handle: the wallet's host and path, without the scheme (it fits). */
function profilesPrefix(): string {
  return `${config().walletUrl.replace(/^https?:\/\//, "")}/profiles/`;
}

export async function WalletOwnerTools({ email, locale }: { email: string; locale: Locale }) {
  const profile = await walletProfile(email);
  return (
    <div className={styles.tools}>
      <ProfileSettings initial={profile} profilesPrefix={profilesPrefix()} />
      <DownloadAll locale={locale} />
    </div>
  );
}
